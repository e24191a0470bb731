import { SERVICE_INFO, type ServiceName } from '../../../contracts/services.ts';
import type { Severity } from '../failure.ts';
import type { HttpResponse } from '../http-client.ts';

/** What a response check sees of one exchange, sent by a test or read from recorded traffic. */
export interface CheckedExchange {
  /** The service whose base path the request was sent to (undefined: none of the three). */
  service?: ServiceName;
  method: string;
  /** The path from the origin, without the query. */
  path: string;
  status: number;
  /** Media type without parameters, lower-case ('' when absent). */
  contentType: string;
  text: string;
  json: unknown;
  /** The body was cut before it was kept: a shape check passes it over. */
  truncated?: boolean;
}

/** What one check found about one rule on one exchange. */
export interface Finding {
  rule: string;
  ok: boolean;
  title: string;
  expected: string;
  received: string;
  /**
   * The catalog reading of `rule` this finding rests on: when it does not hold the rule gets the
   * reading's warning, never a failure.
   */
  reading?: string;
  /** How grave its failure is, where the finding says so (a word run by `findingsOf` does). */
  severity?: Severity;
}

/**
 * A check of one response on its own, judged after every request a test sends and on every
 * recorded exchange an audit reads: it names the rules it judges, has a fixed title and severity,
 * and returns a finding per rule it could judge on this exchange (none when the exchange is not
 * one it applies to).
 */
export interface ResponseCheck {
  name: string;
  title: string;
  severity: Severity;
  rules: readonly string[];
  check(x: CheckedExchange): Finding[];
}

/** The exchange a check sees of a response to a request the suite sent to `service`. */
export function checkedExchange(
  service: ServiceName,
  req: { method: string; path: string },
  res: HttpResponse,
): CheckedExchange {
  return {
    service,
    method: req.method.toUpperCase(),
    path: `${SERVICE_INFO[service].basePath}${req.path}`.split('?')[0],
    status: res.status,
    contentType: res.contentType,
    text: res.text,
    json: res.json,
  };
}

/** The path of an exchange below its service's base path ('' when it is not below it). */
export function servicePath(x: CheckedExchange): string {
  if (!x.service) return '';
  const base = SERVICE_INFO[x.service].basePath;
  return x.path.startsWith(base) ? x.path.slice(base.length).replace(/\/+$/, '') : '';
}

/** A one-line description of an answer for a finding's Received. */
export function answerOf(x: CheckedExchange, max = 160): string {
  const body = x.text.length > max ? `${x.text.slice(0, max)}…` : x.text;
  return `HTTP ${x.status}${x.contentType ? ` ${x.contentType}` : ''}${body ? ` ${body.replace(/\s+/g, ' ')}` : ''}`;
}

/** A finding whose Received is worked out only when the check did not hold. */
export function finding(rule: string, ok: boolean, title: string, expected: string, received: () => string): Finding {
  return { rule, ok, title, expected, received: ok ? '' : received() };
}
