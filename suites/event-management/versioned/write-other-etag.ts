import type fc from 'fast-check';
import { holds } from '../../engine/checks/index.ts';
import { seen } from '../em-client.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with an If-Match `offset` away from the current etag (one it may never have had): 412. */
export class WriteOtherEtag implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<VersionedModel>) => this.offset !== 0 && m.etag + this.offset >= 0;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag + this.offset), m.value === 77 ? 76 : 77);
    holds(r.t, {
      rule: r.rules.writeStale,
      ok: res.status === 412,
      failure: `${r.write.method} with a differing If-Match not answered 412`,
      expected: 'HTTP 412',
      received: seen(res, 160),
    });
  }
  toString = () => `write etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}
