import type { RuleContext } from '../rule-test.ts';

/**
 * The documents say "HTTPS only". A client sees only the scheme it was given, so the rule is
 * observed, never failed: HTTPS in use, or plain HTTP (a loopback test deployment, or a warning).
 */
export function observeTargetScheme(t: RuleContext, ruleId: string): void {
  const url = new URL(t.session.context.config.target);
  const loopback = ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname);
  t.observe(
    ruleId,
    url.protocol === 'https:'
      ? `the target is served over HTTPS (${url.origin})`
      : `the target is plain HTTP (${url.origin})${loopback ? ', a loopback deployment' : ': the document requires HTTPS only'}`,
  );
}
