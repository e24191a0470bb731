import type fc from 'fast-check';
import { refused } from '../../engine/checks/index.ts';
import { send } from '../em-client.ts';
import type { Versioned, VersionedModel } from './model.ts';

/** A DELETE with an If-Match `offset` away from the current etag: 409 (the resource stays). */
export class DeleteOtherEtag implements fc.AsyncCommand<VersionedModel, Versioned> {
  constructor(readonly offset: number) {}
  check = (m: Readonly<VersionedModel>) => this.offset !== 0 && m.etag + this.offset >= 0;
  async run(m: VersionedModel, r: Versioned) {
    const rule = r.rules.deleteStale;
    if (!rule) throw new Error(`the ${r.noun} model has no DELETE`);
    const res = await send(r.t, {
      method: 'DELETE',
      path: r.path,
      headers: { 'If-Match': String(m.etag + this.offset) },
    });
    refused(r.t, { rule, res, what: 'DELETE with a differing If-Match', statuses: [409] });
  }
  toString = () => `DELETE etag${this.offset > 0 ? '+' : ''}${this.offset}`;
}
