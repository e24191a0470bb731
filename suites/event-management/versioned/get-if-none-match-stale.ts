import type fc from 'fast-check';
import { taken } from '../../engine/checks/index.ts';
import { send } from '../em-client.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET with If-None-Match naming an etag the resource had: 200 with the current representation. */
export class GetIfNoneMatchStale implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = (m: Readonly<VersionedModel>) => m.stale.length > 0;
  async run(m: VersionedModel, r: Versioned) {
    await readCurrent(m, r);
    const old = m.stale[m.stale.length - 1];
    const res = await send(r.t, { method: 'GET', path: r.path, headers: { 'If-None-Match': String(old) } });
    taken(r.t, {
      rule: r.rules.get304,
      res,
      what: `a GET of the ${r.noun} with an outdated If-None-Match`,
      shows: { etag: m.etag },
    });
  }
  toString = () => 'GET If-None-Match stale';
}
