import type fc from 'fast-check';
import { body, seen } from '../em-client.ts';
import { etagOf, expect, reading } from '../em-checks.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write with the current etag: taken, the etag moves on, the ETag header names the new one. */
export class WriteCurrent implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly value: number) {}
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(String(m.etag), this.value);
    const shows = r.shownValue ? r.shownValue(res) === this.value : true;
    expect(
      r.t,
      r.rules.writeOk,
      res.status === 200 && shows,
      `${r.write.method}${r.shownValue ? ` of ${r.write.what}` : ''} with the current etag refused`,
      r.shownValue ? `HTTP 200 with ${r.write.what} ${this.value}` : 'HTTP 200',
      seen(res, 160),
    );
    const etag = body(res).etag as number;
    if (r.counter === 'increases')
      expect(
        r.t,
        r.rules.counter,
        Number.isInteger(etag) && etag > m.etag,
        `a successful ${r.write.method} did not increase the etag`,
        `an integer above ${m.etag}`,
        String(etag),
      );
    else {
      expect(
        r.t,
        r.rules.counter,
        Number.isInteger(etag) && etag !== m.etag,
        `a successful ${r.write.method} did not change the etag`,
        `an integer other than ${m.etag}`,
        String(etag),
      );
      reading(
        r.t,
        r.counter.changesAndReading,
        r.rules.counter,
        etag > m.etag,
        `a successful ${r.write.method} did not increase the etag`,
        `an integer above ${m.etag}`,
        String(etag),
      );
    }
    expect(
      r.t,
      r.rules.etagHeader,
      etagOf(res) === etag,
      `${r.write.method} ETag header does not identify the new etag`,
      `ETag "${etag}"`,
      res.headers.etag ?? '(none)',
    );
    m.stale.push(m.etag);
    m.etag = etag;
    m.value = this.value;
  }
  toString = () => `write current ${this.value}`;
}
