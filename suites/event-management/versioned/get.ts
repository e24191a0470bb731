import type fc from 'fast-check';
import { etagHeader } from '../../engine/checks/index.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET: the current etag, in the body and in the ETag header. */
export class Get implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await readCurrent(m, r);
    etagHeader(r.t, {
      rule: r.rules.etagHeader,
      res,
      etag: m.etag,
      what: 'GET',
    });
  }
  toString = () => 'GET';
}
