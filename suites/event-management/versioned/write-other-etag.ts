import type fc from 'fast-check';
import { refused } from '../../engine/checks/index.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with an If-Match `offset` away from the current etag (one it may never have had): 412. */
export class WriteOtherEtag implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<VersionedModel>) => this.offset !== 0 && m.etag + this.offset >= 0;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag + this.offset), m.value === 77 ? 76 : 77);
    refused(r.t, {
      rule: r.rules.writeStale,
      res,
      what: `${r.write.method} with a differing If-Match`,
      statuses: [412],
    });
  }
  toString = () => `write etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}
