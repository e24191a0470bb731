import type { RuleContext } from '../rule-test.ts';

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/**
 * The documents say "HTTPS only". A target given over HTTPS is observed (plain HTTP is not
 * tried on it). A plain-HTTP target on loopback is a local test deployment and observed. A
 * plain-HTTP target off loopback is asked once, without credentials: an answer other than a
 * redirect to HTTPS means the service serves plain HTTP, and the rule fails.
 */
export async function observeTargetScheme(t: RuleContext, ruleId: string, path = '/'): Promise<void> {
  const url = new URL(t.session.context.config.target);
  if (url.protocol === 'https:') {
    t.observe(ruleId, `the target is served over HTTPS (${url.origin}); plain HTTP was not tried`);
    return;
  }
  if (LOOPBACK.includes(url.hostname)) {
    t.observe(ruleId, `the target is plain HTTP (${url.origin}), a loopback deployment`);
    return;
  }
  const res = await t.send({ method: 'GET', path }, { as: null });
  const location = res.headers.location ?? '';
  if (res.status >= 300 && res.status < 400 && location.startsWith('https://')) {
    t.observe(ruleId, `plain HTTP (${url.origin}) answers ${res.status}, a redirect to ${location}`);
    return;
  }
  t.check(ruleId, false, {
    title: 'the service answers over plain HTTP',
    severity: 'high',
    expected: 'HTTPS only: no answer over plain HTTP off loopback (or a redirect to HTTPS)',
    received: `GET ${path} over plain HTTP (${url.origin}) answered HTTP ${res.status}`,
  });
}
