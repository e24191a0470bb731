import type fc from 'fast-check';
import { holds } from '../../engine/checks/index.ts';
import { seen } from '../em-client.ts';
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
    holds(r.t, {
      rule: r.rules.writeStale,
      ok: res.status === 412,
      failure: `${r.write.method} with a stale If-Match not answered 412`,
      expected: 'HTTP 412',
      received: seen(res, 160),
    });
  }
  toString = () => `write stale #${this.pick}`;
}
