import type fc from 'fast-check';
import { holds } from '../../engine/checks/index.ts';
import { body, send, seen } from '../em-client.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET with If-None-Match naming an etag the resource had: 200 with the current representation. */
export class GetIfNoneMatchStale implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = (m: Readonly<VersionedModel>) => m.stale.length > 0;
  async run(m: VersionedModel, r: Versioned) {
    await readCurrent(m, r);
    const old = m.stale[m.stale.length - 1];
    const res = await send(r.t, { method: 'GET', path: r.path, headers: { 'If-None-Match': String(old) } });
    holds(r.t, {
      rule: r.rules.get304,
      ok: res.status === 200 && body(res).etag === m.etag,
      failure: `an outdated If-None-Match not answered 200 with the ${r.noun}`,
      expected: `HTTP 200 with etag ${m.etag}`,
      received: seen(res, 160),
    });
  }
  toString = () => 'GET If-None-Match stale';
}
