import type fc from 'fast-check';
import { seen } from '../em-client.ts';
import { expect } from '../em-checks.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with an If-Match `offset` away from the current etag (one it may never have had): 412. */
export class WriteOtherEtag implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<VersionedModel>) => this.offset !== 0 && m.etag + this.offset >= 0;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag + this.offset), m.value === 77 ? 76 : 77);
    expect(
      r.t,
      r.rules.writeStale,
      res.status === 412,
      `${r.write.method} with a differing If-Match not answered 412`,
      'HTTP 412',
      seen(res, 160),
    );
  }
  toString = () => `write etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}
