import type { HttpResponse } from '../http-client.ts';
import type { RuleContext } from '../rule-test.ts';
import type { PrincipalName } from '../token-provider.ts';

/** One request to a service, its path relative to the service's base path. */
export interface ResourceRequest {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  headers?: Record<string, string | undefined>;
  json?: unknown;
  /** The principal whose token is sent (the run's own unless told). */
  as?: PrincipalName;
}

/** How the generic resource tests reach a service: its sender, its polling and its list answers. */
export interface ResourceIo {
  send(t: RuleContext, req: ResourceRequest): Promise<HttpResponse>;
  /** Repeats a read until `done` holds or the service's visibility deadline passes. */
  eventually<T>(probe: () => Promise<T>, done: (v: T) => boolean): Promise<{ value: T; ok: boolean }>;
  /** The path under the service's base path a link points to (undefined: none, or outside the service). */
  servicePath(t: RuleContext, href: string | undefined): string | undefined;
  /** The records a list answer holds under `key`. */
  listed(res: HttpResponse, key: string): Array<Record<string, unknown>>;
}
