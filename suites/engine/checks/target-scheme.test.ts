import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http-client.ts';
import { RuleContext, type RuleTestMeta } from '../rule-test.ts';
import { observeTargetScheme } from './target-scheme.ts';

const RULE = 'notification/general/https-only';

/** A rule context whose target is `target` and whose requests all get `answer`. */
function context(target: string, answer: Partial<HttpResponse>): { t: RuleContext; meta: RuleTestMeta; sent: number } {
  const meta: RuleTestMeta = { rules: [RULE], outcomes: {}, service: 'notification', budget: 1, readOnly: true };
  const session = { context: { config: { target } } };
  const t = new RuleContext(session as never, 'notification', meta, 's', { task: { name: 'x' } } as never);
  const state = { t, meta, sent: 0 };
  t.send = () => {
    state.sent++;
    return Promise.resolve({ status: 200, headers: {}, text: '', contentType: '', ...answer } as HttpResponse);
  };
  return state;
}

describe('HTTPS only', () => {
  it('fails a plain-HTTP target off loopback that answers', async () => {
    const c = context('http://staging.example.com', { status: 401 });
    await expect(observeTargetScheme(c.t, RULE)).rejects.toThrow();
    expect(c.meta.outcomes[RULE].status).toBe('failed');
  });

  it('observes a plain-HTTP target off loopback that redirects to HTTPS', async () => {
    const c = context('http://staging.example.com', {
      status: 301,
      headers: { location: 'https://staging.example.com/' },
    });
    await observeTargetScheme(c.t, RULE);
    expect(c.meta.outcomes[RULE].status).toBe('observed');
  });

  it('observes a loopback or HTTPS target without sending anything', async () => {
    for (const target of ['http://127.0.0.1:8080', 'https://staging.example.com']) {
      const c = context(target, { status: 200 });
      await observeTargetScheme(c.t, RULE);
      expect(c.meta.outcomes[RULE].status).toBe('observed');
      expect(c.sent).toBe(0);
    }
  });
});
