import { RuleTester } from 'eslint';
import { parser } from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { contractBound, parameterBound } from '../contracts/facts.ts';
import plugin, { ALLOWLIST, boundValues } from './contract-bound-literals.js';

RuleTester.describe = describe;
RuleTester.it = it;
const tester = new RuleTester({ languageOptions: { parser } });
const rule = plugin.rules!['no-bound-literal'];
const em = 'suites/event-management/some.spec.ts';
const notification = 'suites/notification/some.spec.ts';

describe('contract-facts/no-bound-literal', () => {
  it('reads its bounds from the contracts, one beyond each and the numeric defaults with them', () => {
    const bounds = boundValues();
    const emBounds = bounds.get('event-management')!;
    const eventsMax = parameterBound('event-management', 'queryEvents', 'size', 'maximum');
    expect(emBounds.get(eventsMax)).toContain('#/components/parameters/eventsSize/schema maximum');
    expect(emBounds.get(eventsMax + 1)).toContain('#/components/parameters/eventsSize/schema maximum + 1');
    const ttlDefault = contractBound('event-management', '#/components/schemas/EventType/properties/ttl', 'default');
    expect(emBounds.get(ttlDefault)).toContain('#/components/schemas/EventType/properties/ttl default');
    // Below the floor: too common to mean a bound.
    expect([...bounds.values()].some((m) => [...m.keys()].some((v) => v < 3))).toBe(false);
    expect(ALLOWLIST.length).toBeLessThanOrEqual(10);
    for (const a of ALLOWLIST) expect(a.reason).toBeTruthy();
  });

  tester.run('no-bound-literal', rule, {
    valid: [
      { code: 'const size = EVENTS_PAGE.max + 1;', filename: em },
      { code: 'const retries = 500; // not a contract bound: a retry count', filename: em },
      { code: '// not a contract bound: a retry count\nconst retries = 500;', filename: em },
      { code: 'await sleep(100);', filename: em },
      { code: 'await sleep(Math.min(10 + attempt * 10, 100));', filename: em },
      { code: 'ruleTest(x, { budget: 50 });', filename: em },
      { code: 't.property(a, f, { runs: Math.min(n, 20) });', filename: em },
      { code: 'const ok = res.status >= 400 && res.status < 500;', filename: em },
      { code: 'const s = Math.random().toString(36);', filename: em },
      // Another service's bound: the event-management page maximum means nothing to notification.
      { code: 'const n = 500;', filename: notification },
      { code: 'const i = 1, j = 2;', filename: em },
    ],
    invalid: [
      { code: 'const res = await q({ size: 501 });', filename: em, errors: [{ messageId: 'bound' }] },
      { code: 'const events = timestamps(50);', filename: em, errors: [{ messageId: 'bound' }] },
      { code: "const code = 'x'.repeat(17);", filename: em, errors: [{ messageId: 'bound' }] },
      // A reason is required, and the annotation of another line does not count.
      { code: 'const n = 100; // not a contract bound:', filename: em, errors: [{ messageId: 'bound' }] },
      {
        code: '// not a contract bound: x\nconst a = 1;\nconst n = 100;',
        filename: em,
        errors: [{ messageId: 'bound' }],
      },
      // Compared with something other than a status, 500 is the page maximum again.
      { code: 'const full = list.length < 500;', filename: em, errors: [{ messageId: 'bound' }] },
      { code: 'const tooBig = 16_777_216;', filename: notification, errors: [{ messageId: 'bound' }] },
      // The engine and audit/ serve every service.
      { code: 'const n = 6;', filename: 'suites/engine/x.ts', errors: [{ messageId: 'bound' }] },
      { code: 'const n = 5;', filename: 'audit/x.ts', errors: [{ messageId: 'bound' }] },
    ],
  });
});
