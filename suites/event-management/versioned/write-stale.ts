import type fc from 'fast-check';
import { refused } from '../../engine/checks/index.ts';
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
    refused(r.t, { rule: r.rules.writeStale, res, what: `${r.write.method} with a stale If-Match`, statuses: [412] });
  }
  toString = () => `write stale #${this.pick}`;
}
