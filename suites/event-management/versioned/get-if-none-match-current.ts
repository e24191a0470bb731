import type fc from 'fast-check';
import { send, seen } from '../em-client.ts';
import { expect } from '../em-checks.ts';
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
    expect(
      r.t,
      r.rules.get304,
      res.status === 304 && res.text === '',
      'a matching If-None-Match not answered 304 without a body',
      'HTTP 304, no body',
      seen(res, 160),
    );
  }
  toString = () => 'GET If-None-Match current';
}
