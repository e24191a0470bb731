import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import { describeResponse } from './describe-response.ts';
import { judge } from './judge.ts';

/** What `servesRecord` judges: the answer to a GET of a link (undefined: the link is outside the service). */
export type ServesRecordOptions = {
  rule: string;
  res: HttpResponse | undefined;
  /** The link followed, as the deployment gave it. */
  link: string;
  /** The id of the record it must serve. */
  id: unknown;
  /** The record, as a failure names it (`${link} does not serve ${what}`). */
  what: string;
  /** The test goes on when not (it fails at its end). */
  soft?: boolean;
};

/** A link followed serves the record it names: 200 with its id. Returns whether it does. */
export function servesRecord(t: RuleContext, o: ServesRecordOptions): boolean {
  const { res } = o;
  const json = res?.json;
  const ok = res?.status === 200 && !!json && typeof json === 'object' && (json as { id?: unknown }).id === o.id;
  const d = {
    title: `${o.link} does not serve ${o.what}`,
    severity: 'high' as const,
    expected: `GET ${o.link} answers 200 with id ${String(o.id)}`,
    received: ok ? '' : res ? describeResponse(res, 240) : `${o.link} is not under the service`,
  };
  return judge(t, o.rule, ok, d, { soft: o.soft });
}
