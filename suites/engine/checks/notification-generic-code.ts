import { answerOf, finding, type Finding, type ResponseCheck } from './response-check.ts';

/** The statuses the Errors table pairs with exactly one generic code, and the rule of each. */
const ONE_CODE: Readonly<Record<number, { suffix: string; rule: string }>> = {
  401: { suffix: 'unauthorized', rule: 'notification/errors/code-unauthorized' },
  403: { suffix: 'forbidden', rule: 'notification/errors/code-forbidden' },
  404: { suffix: 'noMatch', rule: 'notification/errors/code-no-match' },
  409: { suffix: 'conflict', rule: 'notification/errors/code-conflict' },
  429: { suffix: 'tooManyRequests', rule: 'notification/errors/code-too-many-requests' },
};

/**
 * Notification's generic codes on the statuses the Errors table pairs with one code
 * ("| 404 | noMatch |", notification.md): a code such an answer carries is that one, or the
 * document check fails. That the answer carries a code at all is the reading
 * `generic-code-present` (the codes "may occur on any operation" and the body shape is not shown).
 * The body shape not being shown, the code is looked for anywhere in the body.
 */
export const notificationGenericCode: ResponseCheck = {
  name: 'notification-generic-code',
  title: 'notification generic error code of the status',
  severity: 'medium',
  rules: Object.values(ONE_CODE).map((c) => c.rule),
  check(x) {
    const paired = ONE_CODE[x.status];
    if (x.service !== 'notification' || !paired || x.truncated) return [];
    const carried = [...x.text.matchAll(/platform\.core\.generic\.([A-Za-z]+)/g)].map((m) => m[1]);
    const code = `platform.core.generic.${paired.suffix}`;
    const out: Finding[] = [
      finding(
        paired.rule,
        carried.every((c) => c === paired.suffix),
        `HTTP ${x.status} with a generic code the Errors table lists for another status`,
        `no generic code other than ${code} with HTTP ${x.status}`,
        () => answerOf(x, 200),
      ),
    ];
    out.push({
      ...finding(
        paired.rule,
        carried.includes(paired.suffix),
        `HTTP ${x.status} without the code ${code}`,
        `the text ${code} in the body`,
        () => answerOf(x, 200),
      ),
      reading: 'generic-code-present',
    });
    return out;
  },
};
