import type fc from 'fast-check';
import { holds, etagOf } from '../../engine/checks/index.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET: the current etag, in the body and in the ETag header. */
export class Get implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await readCurrent(m, r);
    holds(r.t, {
      rule: r.rules.etagHeader,
      ok: etagOf(res) === m.etag,
      failure: `GET ETag header does not identify the ${r.noun === 'type' ? 'type ' : 'current '}etag`,
      expected: `ETag "${m.etag}"`,
      received: res.headers.etag ?? '(none)',
    });
  }
  toString = () => 'GET';
}
