import type fc from 'fast-check';
import { holds, etagHeader, taken } from '../../engine/checks/index.ts';
import { body } from '../em-client.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with the current etag: taken, the etag moves on, the ETag header names the new one. */
export class WriteCurrent implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly value: number) {}
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag), this.value);
    taken(r.t, {
      rule: r.rules.writeOk,
      res,
      what: `${r.write.method} of ${r.write.what} ${this.value} with the current etag`,
      shows: r.shown ? { [r.shown]: this.value } : {},
    });
    const etag = body(res).etag as number;
    if (r.counter === 'increases')
      holds(r.t, {
        rule: r.rules.counter,
        ok: Number.isInteger(etag) && etag > m.etag,
        failure: `a successful ${r.write.method} did not increase the etag`,
        expected: `an integer above ${m.etag}`,
        received: String(etag),
      });
    else {
      holds(r.t, {
        rule: r.rules.counter,
        ok: Number.isInteger(etag) && etag !== m.etag,
        failure: `a successful ${r.write.method} did not change the etag`,
        expected: `an integer other than ${m.etag}`,
        received: String(etag),
      });
      holds(r.t, {
        reading: r.counter.changesAndReading,
        rule: r.rules.counter,
        ok: etag > m.etag,
        failure: `a successful ${r.write.method} did not increase the etag`,
        expected: `an integer above ${m.etag}`,
        received: String(etag),
      });
    }
    etagHeader(r.t, {
      rule: r.rules.etagHeader,
      res,
      etag: etag,
      what: r.write.method,
    });
    m.stale.push(m.etag);
    m.etag = etag;
    m.value = this.value;
  }
  toString = () => `write current ${this.value}`;
}
