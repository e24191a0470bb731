import type fc from 'fast-check';
import { notModified } from '../../engine/checks/index.ts';
import { send } from '../em-client.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET with If-None-Match naming the current etag: 304 without a body. */
export class GetIfNoneMatchCurrent implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const current = await readCurrent(m, r);
    const res = await send(r.t, {
      method: 'GET',
      path: r.path,
      headers: { 'If-None-Match': current.headers.etag ?? String(m.etag) },
    });
    notModified(r.t, { rule: r.rules.get304, res, what: 'a matching If-None-Match' });
  }
  toString = () => 'GET If-None-Match current';
}
