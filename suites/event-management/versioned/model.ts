// The versioned-resource model: an event and an event type are both resources with an integer
// etag, read with GET (and If-None-Match), written with If-Match (PUT of an event, PATCH of a
// type), the type also deleted with If-Match. One model and one command per file serve both.
import type { HttpResponse } from '../../engine/http-client.ts';
import { taken } from '../../engine/checks/index.ts';
import type { RuleContext } from '../../engine/rule-test.ts';
import { body, eventually, send } from '../em-client.ts';

/** What the model knows of the resource: its etag, the etags it had, and the value last written. */
export interface VersionedModel {
  etag: number;
  /** Etags the resource had before (stale now). */
  stale: number[];
  /** The value the writes change (an event's severity, a type's ttl). */
  value: number;
}

/** The rules each step of the model judges, per resource. */
export interface VersionedRules {
  etagHeader: string;
  get304: string;
  counter: string;
  writeOk: string;
  writeStale: string;
  writeIfMatchRequired: string;
  deleteStale?: string;
  deleteIfMatchRequired?: string;
}

/** The resource under test, as the commands reach it. */
export interface Versioned {
  t: RuleContext;
  noun: 'event' | 'type';
  /** How steps name its write and the value it changes (`PUT` of `severity`, `PATCH` of `ttl`). */
  write: { method: 'PUT' | 'PATCH'; what: string };
  path: string;
  rules: VersionedRules;
  /** Sends a write of `value` with `ifMatch` as the If-Match header (undefined: none). */
  send(ifMatch: string | undefined, value: number): Promise<HttpResponse>;
  /** The member an answer shows the written value in (undefined: none, as a PUT's answer need not). */
  shown?: string;
  /**
   * How the etag moves on a write: an event's is an "incremental counter" (the document); a
   * type's is only said to be an int64 that a precondition compares, so that it increases is our
   * reading (`type-etag-increases`).
   */
  counter: 'increases' | { changesAndReading: string };
}

/** Reads the resource until its etag is the model's (a change may take 100 ms to show); judges that nothing else moved it. */
export async function readCurrent(m: VersionedModel, r: Versioned): Promise<HttpResponse> {
  const res = (
    await eventually(
      () => send(r.t, { method: 'GET', path: r.path }),
      (x) => x.status === 200 && body(x).etag === m.etag,
    )
  ).value;
  // Nothing moved it since: the read shows the model's etag (and value).
  taken(r.t, {
    rule: r.rules.counter,
    res,
    what: `a GET of the ${r.noun} with no successful ${r.write.method} since etag ${m.etag}`,
    shows: { etag: m.etag, ...(r.shown ? { [r.shown]: m.value } : {}) },
  });
  return res;
}
