import type fc from 'fast-check';
import { seen } from '../em-client.ts';
import { expect } from '../em-checks.ts';
import type { Versioned, VersionedModel } from './model.ts';
import { SEVERITY } from '../em-bounds.ts';

/** A write with an etag the resource had before: 412. */
export class WriteStale implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<VersionedModel>) => m.stale.length > 0;
  async run(m: VersionedModel, r: Versioned) {
    const old = m.stale[this.pick % m.stale.length];
    // The highest severity (a valid ttl too), or one below it when that is the value now.
    const res = await r.send(String(old), m.value === SEVERITY.max ? SEVERITY.max - 1 : SEVERITY.max);
    expect(
      r.t,
      r.rules.writeStale,
      res.status === 412,
      `${r.write.method} with a stale If-Match not answered 412`,
      'HTTP 412',
      seen(res, 160),
    );
  }
  toString = () => `write stale #${this.pick}`;
}
