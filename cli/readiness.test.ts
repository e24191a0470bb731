import { describe, expect, it } from 'vitest';
import { REDACTED, registerSecret } from '../suites/engine/redact.ts';
import { DETAIL_LIMIT, boundDetail, notReadyPieces } from './readiness.ts';

describe("a readiness row's detail", () => {
  // A target's token of megabytes once put its whole scope list into the reason of every rule the
  // row left unjudged, in every report.
  const scopes = Array.from({ length: 30000 }, (_, i) => `scope${i}`).join(' ');
  const detail = `token obtained for tenant home; scopes: ${scopes}; lacks em.r: the tests acting with them will be refused`;

  it('becomes a skip reason of bounded length, saying how much was left out', () => {
    const { reason } = notReadyPieces([{ check: 'tokenManager', status: 'failed', detail }]).tokenManager;
    expect(reason.length).toBeLessThan(DETAIL_LIMIT + 100);
    expect(reason).toMatch(/^tokenManager is not ready: token obtained for tenant home; scopes: scope0 scope1 /);
    expect(reason).toMatch(new RegExp(`…\\(${detail.length - DETAIL_LIMIT} more characters left out\\)$`));
  });

  it('is cut once, and short ones as they are', () => {
    expect(boundDetail(boundDetail(detail))).toBe(boundDetail(detail));
    expect(boundDetail('not configured')).toBe('not configured');
  });

  it('is redacted before it is cut: no secret is left cut in half', () => {
    const secret = 'readiness-secret-0a1b2c3d';
    registerSecret(secret);
    const cut = boundDetail(`${'x'.repeat(DETAIL_LIMIT - 5)}${secret}${'y'.repeat(DETAIL_LIMIT)}`);
    expect(cut).not.toContain(secret.slice(0, 5));
    expect(cut).toContain(REDACTED.slice(0, 5));
  });
});
