import type { HttpResponse } from '../http-client.ts';
import type { Severity } from '../failure.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** The error code a refusal must carry, and the service's check of it (run after the status holds). */
type CodeOptions<C extends string> =
  | { code?: undefined; verifyCode?: undefined; codesOf?: undefined }
  | { code?: C; verifyCode: (t: RuleContext, res: HttpResponse, code: C) => void; codesOf?: undefined }
  /** The answer's error codes: the refusal carries `code` among them, judged with its status. */
  | { code?: C; verifyCode?: undefined; codesOf: (res: HttpResponse) => readonly string[] };

/** What `refused` judges: the answer to input that breaks `rule`, and how it must be refused. */
export type RefusedOptions<C extends string = string> = {
  rule: string;
  res: HttpResponse;
  /** The input, as a failure names it (`not refused: ${what}`). */
  what: string;
  /** The statuses that refuse it (400 unless told). */
  statuses?: readonly number[];
  /** Any 4xx refuses it (the document names no status). */
  anyClientError?: boolean;
  /** The refusal rests on this reading (listed with the rule in the catalog): a warning, and the test goes on. */
  reading?: string;
  /**
   * A 4xx refusal is the document's; that its status is one of `statuses` (and carries `code`)
   * rests on this reading (a warning when not).
   */
  statusReading?: string;
  /** High unless told (an answer served across tenants or a token handed out is critical). */
  severity?: Severity;
  /** What the answer must not carry even when refused (say a token): its description when it does. */
  withheld?: (res: HttpResponse) => string | undefined;
  /** An answer of one of `statuses` is of this media type: judged for its own rule (going on) before the refusal. */
  mediaType?: { rule: string; type: string };
} & CodeOptions<C>;

/** Input that breaks a rule is refused: one of `statuses` (400 unless told) or, with `anyClientError`, any 4xx. */
export function refused<C extends string>(t: RuleContext, o: RefusedOptions<C>): void {
  const { rule, res, what, statuses = [400], code } = o;
  const severity = o.severity ?? 'high';
  const clientError = res.status >= 400 && res.status < 500;
  const listed = statuses.includes(res.status);
  const leak = o.withheld?.(res);
  const codes = o.codesOf?.(res);
  if (o.mediaType && listed)
    judge(
      t,
      o.mediaType.rule,
      res.contentType === o.mediaType.type,
      {
        title: `${what} not answered as ${o.mediaType.type}`,
        expected: `Content-Type ${o.mediaType.type}`,
        received: res.contentType || '(none)',
        response: res,
      },
      { soft: true },
    );
  const named = `HTTP ${statuses.join(' or ')}${code ? ` (${code})` : ''}`;
  const d = {
    title: `not refused: ${what}`,
    severity,
    expected:
      o.statusReading !== undefined
        ? `a 4xx status for ${what} (${statuses.join(' or ')}${code ? ` ${code}` : ''} by our reading)`
        : `${o.anyClientError ? 'a 4xx status' : named} for ${what}${o.withheld ? ', carrying nothing withheld' : ''}`,
    received: `${describeResponse(res)}${codes ? ` codes ${JSON.stringify(codes)}` : ''}${leak ? ` (carrying ${leak})` : ''}`,
    response: res,
  };
  const carries = code === undefined || codes === undefined || codes.includes(code);
  const ok = (o.anyClientError || o.statusReading !== undefined ? clientError : listed) && !leak && carries;
  if (o.reading !== undefined) t.reading(o.reading, rule, ok, d);
  else t.check(rule, ok, d);
  if (o.statusReading !== undefined)
    t.reading(o.statusReading, rule, listed, {
      title: `${what} not answered ${statuses.join(' or ')}`,
      expected: `${named} for ${what}`,
      received: describeResponse(res),
      response: res,
    });
  if (o.code !== undefined && o.verifyCode) o.verifyCode(t, res, o.code);
}
