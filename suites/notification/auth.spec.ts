import fc from 'fast-check';
import { authAccepted, missingCredentialsRejected, missingScopeRejected, genericCode } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { UNKNOWN_ID, certificateForm, exampleEmail, notificationTest as test, send } from './notification-client.ts';
import { operationProbes } from './operation-probes.ts';

const ADMIN = 'nose.ac';
const SEND = 'nose.se';

/**
 * A token whose signature no longer matches: the first signature character is changed (all of
 * its bits count, unlike the last one's, which may be padding).
 */
async function tamperedToken(t: RuleContext): Promise<string | undefined> {
  const header = await t.session.tokens.authorization('full');
  const [h, c, sig] = header.replace(/^Bearer\s+/i, '').split('.');
  if (!sig) return undefined;
  return `Bearer ${h}.${c}.${sig[0] === 'A' ? 'Q' : 'A'}${sig.slice(1)}`;
}

test(
  ['notification/auth/token-required', 'notification/errors/code-unauthorized'],
  'every operation answers 401 to a request without an access token',
  async (t) => {
    for (const op of await operationProbes(t)) {
      const res = await send(t, op.request, null);
      missingCredentialsRejected(t, 'notification/auth/token-required', res);
      genericCode(t, res, 'unauthorized');
    }
  },
  { budget: 40 },
);

test(
  ['notification/auth/token-required', 'notification/errors/code-unauthorized'],
  'operations answer 401 to a malformed token, a token of another scheme and a token with a broken signature (property)',
  async (t) => {
    const ops = await operationProbes(t);
    const tampered = await tamperedToken(t);
    // Each kind with what a failure calls it: the path that let it through is the one to mend.
    const bad: Array<{ authorization: string; what: string }> = [
      { authorization: 'Bearer not-a-jwt', what: 'a bearer token that is not a JWT' },
      { authorization: 'Bearer ', what: 'an empty bearer token' },
      { authorization: 'Basic Y29uZm9ybWFuY2U6c2VjcmV0', what: 'credentials of another scheme (Basic)' },
      { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJ0ZW4iOiJ4In0.', what: 'an unsigned JWT (alg none)' },
      ...(tampered
        ? [
            {
              authorization: tampered,
              what: "a JWT whose signature does not verify (the run's own, one character changed)",
            },
          ]
        : []),
    ];
    // Every kind once on one operation, then operations and kinds drawn together.
    const probe = ops.find((o) => o.operationId === 'listCommunicationCategories') ?? ops[0];
    for (const { authorization, what } of bad) {
      const res = await send(t, { ...probe.request, headers: { authorization } }, null);
      missingCredentialsRejected(t, 'notification/auth/token-required', res, what);
      genericCode(t, res, 'unauthorized');
    }
    await t.property(
      fc.tuple(fc.constantFrom(...ops), fc.constantFrom(...bad)),
      async ([op, { authorization, what }]) => {
        const res = await send(t, { ...op.request, headers: { authorization } }, null);
        missingCredentialsRejected(t, 'notification/auth/token-required', res, what);
        genericCode(t, res, 'unauthorized');
      },
      { rule: 'notification/auth/token-required', runs: Math.min(t.session.context.runs, 15) },
    );
  },
  { budget: 5, budgetPerRun: 1 },
);

test(
  ['notification/auth/scope-admin', 'notification/errors/code-forbidden'],
  'every nose.ac operation answers 403 to a token without nose.ac',
  async (t) => {
    if (!t.session.tokens.has(`without:${ADMIN}`))
      t.needsPrincipal(
        `principals.withoutScope["${ADMIN}"]`,
        `needs a principal granted every scope but ${ADMIN} (principals.withoutScope["${ADMIN}"])`,
      );
    const ops = (await operationProbes(t)).filter(
      (o) => o.scopes.length === 1 && o.scopes[0] === ADMIN && o.operationId !== 'deleteBouncedEmails',
    );
    for (const op of ops) {
      const res = await send(t, op.request, `without:${ADMIN}`);
      missingScopeRejected(t, 'notification/auth/scope-admin', res, `${ADMIN} (${op.operationId})`);
      genericCode(t, res, 'forbidden');
    }
  },
  { needs: ['principals.withoutScope["nose.ac"]'], budget: 35 },
);

test(
  ['notification/auth/scope-send', 'notification/errors/code-forbidden'],
  'publish and broadcast answer 403 to a token without nose.se',
  async (t) => {
    if (!t.session.tokens.has(`without:${SEND}`))
      t.needsPrincipal(
        `principals.withoutScope["${SEND}"]`,
        `needs a principal granted every scope but ${SEND} (principals.withoutScope["${SEND}"])`,
      );
    const as = `without:${SEND}` as const;
    const message = {
      body: { message: 'Conformance scope check' },
      recipientsTo: exampleEmail(t, 'scope'),
      from: t.prefix,
      subject: 'ConformanceScope',
    };
    const pub = await send(t, { method: 'POST', path: '/publisher/messages', json: message }, as);
    missingScopeRejected(t, 'notification/auth/scope-send', pub, `${SEND} (publishMessage)`);
    genericCode(t, pub, 'forbidden');
    const { recipientsTo: _ignored, ...content } = message;
    const bc = await send(
      t,
      {
        method: 'POST',
        path: '/broadcastEmails',
        query: { broadcastType: 'tenantAdminsOnly' },
        form: [{ name: 'messageData', value: JSON.stringify(content) }],
      },
      as,
    );
    missingScopeRejected(t, 'notification/auth/scope-send', bc, `${SEND} (broadcastEmail)`);
    genericCode(t, bc, 'forbidden');
  },
  { needs: ['principals.withoutScope["nose.se"]'], budget: 4 },
);

test(
  ['notification/auth/scope-delete-bounced', 'notification/errors/code-forbidden'],
  'DELETE /communicationcategories/bouncedEmailIds needs nose.ac and not nose.se',
  async (t) => {
    const body = { emailList: [exampleEmail(t, 'notbounced')] };
    const req = { method: 'DELETE', path: '/communicationcategories/bouncedEmailIds', json: body };
    if (!t.session.tokens.has(`without:${ADMIN}`) || !t.session.tokens.has(`without:${SEND}`))
      t.needsPrincipal(
        'principals.withoutScope',
        `needs principals without ${ADMIN} and without ${SEND} (principals.withoutScope)`,
      );
    const noAdmin = await send(t, req, `without:${ADMIN}`);
    missingScopeRejected(t, 'notification/auth/scope-delete-bounced', noAdmin, ADMIN);
    genericCode(t, noAdmin, 'forbidden');
    const noSend = await send(t, req, `without:${SEND}`);
    authAccepted(t, {
      rule: 'notification/auth/scope-delete-bounced',
      res: noSend,
      what: `clearing bounced addresses without ${SEND} (the operation lists ${ADMIN} only)`,
    });
  },
  { needs: ['principals.withoutScope["nose.ac"]', 'principals.withoutScope["nose.se"]'], budget: 4 },
);

/** The three operations for which the document lists both scopes. */
function bothListed(t: RuleContext): Array<[string, () => Parameters<RuleContext['send']>[0]]> {
  return [
    ['GET /communicationcategories/{id}', () => ({ method: 'GET', path: `/communicationcategories/${UNKNOWN_ID}` })],
    [
      'GET /communicationcategories/bouncedEmailIds',
      () => ({ method: 'GET', path: '/communicationcategories/bouncedEmailIds' }),
    ],
    [
      'PUT /certificatestore/{emailid}',
      () => ({
        method: 'PUT',
        path: `/certificatestore/${encodeURIComponent(`${t.prefix}_nocert@example.com`)}`,
        form: certificateForm({ fileName: `${t.prefix}.cer`, ownerid: `${t.prefix}owner` }),
      }),
    ],
  ];
}

test(
  ['notification/auth/scope-both-listed', 'notification/errors/code-forbidden'],
  'operations listing nose.se and nose.ac accept a token with both and refuse one with neither',
  async (t) => {
    const withNone = t.session.tokens.has('noScopes');
    if (!withNone)
      t.notExercised(
        'notification/auth/scope-both-listed',
        'the noScopes principal is not configured, so the refusal of a token with neither scope was not tried',
      );
    for (const [what, req] of bothListed(t)) {
      const full = await send(t, req());
      authAccepted(t, { rule: 'notification/auth/scope-both-listed', res: full, what: `${what} with both scopes` });
      if (withNone) {
        const none = await send(t, req(), 'noScopes');
        missingScopeRejected(t, 'notification/auth/scope-both-listed', none, `${SEND} and ${ADMIN} (${what})`);
        genericCode(t, none, 'forbidden');
      }
    }
  },
  // Without noScopes neither rule is judged (the part with both scopes passes neither alone).
  { needs: ['principals.noScopes'], budget: 8 },
);

test(
  ['notification/auth/scope-both-one-or-both'],
  'whether one of nose.se and nose.ac suffices where the document lists both',
  async (t) => {
    const seenStatus: string[] = [];
    const describe = (res: HttpResponse) => (res.status === 403 ? '403 (both needed)' : `${res.status} (one suffices)`);
    for (const scope of [SEND, ADMIN]) {
      if (!t.session.tokens.has(`without:${scope}`)) continue;
      for (const [what, req] of bothListed(t))
        seenStatus.push(`${what} without ${scope}: ${describe(await send(t, req(), `without:${scope}`))}`);
    }
    if (!seenStatus.length)
      t.needsPrincipal(
        'principals.withoutScope',
        `needs principals without ${SEND} or without ${ADMIN} (principals.withoutScope)`,
      );
    t.observe('notification/auth/scope-both-one-or-both', seenStatus.join('; '));
  },
  // Either principal judges the rule: the test is left unjudged only without both.
  { needs: [['principals.withoutScope["nose.se"]', 'principals.withoutScope["nose.ac"]']], budget: 8 },
);
