import type fc from 'fast-check';
import { IF_MATCH_MISSING, refused } from '../../engine/checks/index.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A write without If-Match, or with one that names no etag (`abc`): refused. */
export class WriteWithoutIfMatch implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly header: string | undefined) {}
  check = () => true;
  async run(m: VersionedModel, r: Versioned) {
    const res = await r.send(this.header, m.value === 97 ? 96 : 97);
    const what = `${r.write.method} ${this.header === undefined ? 'without If-Match' : `with If-Match ${this.header}`}`;
    refused(r.t, { rule: r.rules.writeIfMatchRequired, res, what, ...IF_MATCH_MISSING });
  }
  toString = () => (this.header === undefined ? 'write without If-Match' : `write If-Match ${this.header}`);
}
