import { CODE_RULES, CODE_STATUS, genericCodesIn, type CodeSuffix } from './generic-codes.ts';
import { answerOf, finding, type Finding, type ResponseCheck } from './response-check.ts';

const STATUSES = Object.values(CODE_STATUS);

/** The statuses the Errors table pairs with exactly one generic code, and that code. */
const ONE_CODE: ReadonlyMap<number, CodeSuffix> = new Map(
  (Object.entries(CODE_STATUS) as [CodeSuffix, number][])
    .filter(([, status]) => STATUSES.filter((s) => s === status).length === 1)
    .map(([code, status]) => [status, code]),
);

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
  rules: [...ONE_CODE.values()].map((c) => CODE_RULES[c]),
  check(x) {
    const suffix = ONE_CODE.get(x.status);
    if (x.service !== 'notification' || !suffix || x.truncated) return [];
    const rule = CODE_RULES[suffix];
    const carried = genericCodesIn(x.text);
    const code = `platform.core.generic.${suffix}`;
    const out: Finding[] = [
      finding(
        rule,
        carried.every((c) => c === suffix),
        `HTTP ${x.status} with a generic code the Errors table lists for another status`,
        `no generic code other than ${code} with HTTP ${x.status}`,
        () => answerOf(x, 200),
      ),
    ];
    out.push({
      ...finding(
        rule,
        carried.includes(suffix),
        `HTTP ${x.status} without the code ${code}`,
        `the text ${code} in the body`,
        () => answerOf(x, 200),
      ),
      reading: 'generic-code-present',
    });
    return out;
  },
};
