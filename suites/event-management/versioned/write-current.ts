import type fc from 'fast-check';
import { holds, etagHeader } from '../../engine/checks/index.ts';
import { body, seen } from '../em-client.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with the current etag: taken, the etag moves on, the ETag header names the new one. */
export class WriteCurrent implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly value: number) {}
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag), this.value);
    const shows = r.shownValue ? r.shownValue(res) === this.value : true;
    holds(r.t, {
      rule: r.rules.writeOk,
      ok: res.status === 200 && shows,
      failure: `${r.write.method}${r.shownValue ? ` of ${r.write.what}` : ''} with the current etag refused`,
      expected: r.shownValue ? `HTTP 200 with ${r.write.what} ${this.value}` : 'HTTP 200',
      received: seen(res, 160),
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
