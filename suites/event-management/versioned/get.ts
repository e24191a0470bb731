import type fc from 'fast-check';
import { etagOf, expect } from '../em-checks.ts';
import { readCurrent, type Versioned, type VersionedModel } from './model.ts';

/** GET: the current etag, in the body and in the ETag header. */
export class Get implements fc.AsyncCommand<VersionedModel, Versioned> {
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await readCurrent(m, r);
    expect(
      r.t,
      r.rules.etagHeader,
      etagOf(res) === m.etag,
      `GET ETag header does not identify the ${r.noun === 'type' ? 'type ' : 'current '}etag`,
      `ETag "${m.etag}"`,
      res.headers.etag ?? '(none)',
    );
  }
  toString = () => 'GET';
}
