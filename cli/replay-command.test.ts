import { describe, expect, it } from 'vitest';
import { notFailing } from './replay-command.ts';

const RULE = 'notification/auth/scope-send';

describe('what a replay says of a rule that did not fail again', () => {
  it.each(['passed', 'observed', 'warning'])('%s: no longer fails (exit 0)', (status) => {
    expect(notFailing(RULE, { status })).toEqual({ line: `no longer fails: ${RULE} is ${status}`, code: 0 });
  });

  it.each([
    ['skipped', 'principals.withoutScope["nose.se"] is not configured'],
    ['not-exercised', 'an earlier check of this test failed'],
  ])('%s: NOT JUDGED, never "no longer fails" (exit 1)', (status, reason) => {
    const { line, code } = notFailing(RULE, { status, reason });
    expect(code).toBe(1);
    expect(line).toBe(
      `NOT JUDGED: ${RULE} is ${status} (${reason}); the replay could not judge it, so it does not show the failure gone`,
    );
  });

  it('a rule the replay did not report is not judged', () => {
    expect(notFailing(RULE, undefined)).toMatchObject({ line: expect.stringMatching(/^NOT JUDGED: /), code: 1 });
  });
});
