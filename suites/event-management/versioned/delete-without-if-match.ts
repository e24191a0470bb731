import type fc from 'fast-check';
import { IF_MATCH_MISSING, refused } from '../../engine/checks/index.ts';
import { send } from '../em-client.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A DELETE without If-Match, or with one that names no etag: refused. */
export class DeleteWithoutIfMatch implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly header: string | undefined) {}
  check = () => true;
  async run(_m: VersionedModel, r: Versioned) {
    const rule = r.rules.deleteIfMatchRequired;
    if (!rule) throw new Error(`the ${r.noun} model has no DELETE`);
    const res = await send(r.t, {
      method: 'DELETE',
      path: r.path,
      headers: this.header === undefined ? {} : { 'If-Match': this.header },
    });
    const what = `DELETE ${this.header === undefined ? 'without If-Match' : `with If-Match ${this.header}`}`;
    refused(r.t, { rule, res, what, ...IF_MATCH_MISSING });
  }
  toString = () => (this.header === undefined ? 'DELETE without If-Match' : `DELETE If-Match ${this.header}`);
}
