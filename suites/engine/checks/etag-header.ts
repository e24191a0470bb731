import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { judge } from './judge.ts';

/** The integer entity tag of an ETag header (`"3"`, `3`, `W/"3"`), or undefined. */
export function etagOf(res: HttpResponse): number | undefined {
  const m = /^\s*(?:W\/)?"?(-?\d+)"?\s*$/.exec(res.headers.etag ?? '');
  return m ? Number(m[1]) : undefined;
}

/** What `etagHeader` judges: the ETag header of an answer and the resource's `etag` it must name. */
export type EtagHeaderOptions = {
  rule: string;
  res: HttpResponse;
  /** The etag the answer's resource carries. */
  etag: unknown;
  /** The answer, as a failure names it (`${what} answers no ETag header of the etag`). */
  what: string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

/** An answer's ETag header names the etag of the resource it carries. Returns whether it does. */
export function etagHeader(t: RuleContext, o: EtagHeaderOptions): boolean {
  const { rule, res, etag, what } = o;
  const ok = etagOf(res) === etag;
  const d = {
    title: `${what} answers no ETag header of the etag`,
    severity: 'high' as const,
    expected: `ETag "${String(etag)}"`,
    received: ok ? '' : (res.headers.etag ?? '(none)'),
  };
  return judge(t, rule, ok, d, { soft: o.soft });
}
