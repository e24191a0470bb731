// What the categories spec files share.
import { accepted, applied } from '../engine/checks/index.ts';
import fc from 'fast-check';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { channelId, send } from './notification-client.ts';
import { createTemplateSet, templateOf } from './notification-resources.ts';

export type Position = 'TO' | 'CC' | 'BCC';

export interface CategoryView {
  createdby?: unknown;
  from?: unknown;
  msgCategoryId?: unknown;
  msgCategoryName?: unknown;
  priority?: unknown;
  subject?: unknown;
  recipients?: Array<{
    position?: unknown;
    recipientId?: unknown;
    recipientName?: unknown;
    recipientDetails?: unknown;
  }>;
  recipientGroups?: Array<{ position?: unknown; recipientGroupId?: unknown; recipientGroupName?: unknown }>;
  templates?: Array<{
    commChannelName?: unknown;
    templateId?: unknown;
    templatesetId?: unknown;
    templatesetName?: unknown;
  }>;
}

export function getCategory(t: RuleContext, id: number | string, query?: Record<string, string>, as?: 'otherTenant') {
  return send(t, { method: 'GET', path: `/communicationcategories/${id}`, query }, as);
}

export function putCategory(t: RuleContext, id: number | string, body: unknown, as?: 'otherTenant') {
  return send(t, { method: 'PUT', path: `/communicationcategories/${id}`, json: body }, as);
}

export function view(res: HttpResponse): CategoryView {
  return res.json && typeof res.json === 'object' ? res.json : {};
}

/**
 * A list of a category as GET answered it: its objects, or none when the field is missing or not a
 * list (a malformed answer then fails the check that reads it, instead of stopping the test).
 */
export function listIn<K extends 'recipients' | 'templates' | 'recipientGroups'>(
  res: HttpResponse,
  key: K,
): NonNullable<CategoryView[K]> {
  const v: unknown = view(res)[key];
  return (Array.isArray(v) ? v.filter((x) => x !== null && typeof x === 'object') : []) as NonNullable<CategoryView[K]>;
}

/** Alphanumeric fields: letters and digits only; a sign or another type breaks them. */
export function alphanumericCase(t: RuleContext, signs: readonly string[]) {
  return fc.oneof(
    fc.stringMatching(/^[A-Za-z0-9]{1,12}$/).map((s) => ({ value: `${t.prefix}${s}` as unknown, valid: true })),
    fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9]{1,6}$/), fc.constantFrom(...signs))
      .map(([s, c]) => ({ value: `${t.prefix}${c}${s}` as unknown, valid: false })),
    fc.constant({ value: 42, valid: false }),
  );
}

/** The Email and Push Notification templates of a new set, as category template items. */
export async function templateItems(t: RuleContext) {
  const email = channelId(t, 'email');
  const push = channelId(t, 'push');
  const set = await createTemplateSet(t, { channels: [email, push] });
  const e = templateOf(t, set, email);
  const p = templateOf(t, set, push);
  return {
    set,
    e,
    p,
    items: [
      { commChannelName: 'Email', templateId: e.templateId, templatesetId: set.id },
      { commChannelName: 'Push Notification', templateId: p.templateId, templatesetId: set.id },
    ],
  };
}

/** The model of a category's recipients: recipient index → position. */
export type Members = Map<number, Position>;
export interface Real {
  t: RuleContext;
  categoryId: number;
  recipients: number[];
}

/**
 * The recipients GET answers against the model: each member once, at its position, and nobody else
 * (`recipientId:position`, sorted), judged by `applied` after the change `what`.
 */
async function recipientsApplied(model: Members, real: Real, rule: string, what: string): Promise<void> {
  const res = await getCategory(real.t, real.categoryId);
  const got = listIn(res, 'recipients')
    .map((x) => `${String(x.recipientId)}:${String(x.position)}`)
    .sort();
  const want = [...model].map(([i, p]) => `${real.recipients[i]}:${p}`).sort();
  applied(real.t, { rule, what, want, got, res, statuses: [200] });
}

/** PUT with an ADD item: a new recipient is added, an existing one takes the new position. */
export class AddRecipient implements fc.AsyncCommand<Members, Real> {
  /** What a failure prints (kept as data: counterexamples are stored as plain values). */
  readonly label: string;
  constructor(
    readonly index: number,
    readonly position: Position,
  ) {
    this.label = this.toString();
  }
  check(): boolean {
    return true;
  }
  async run(model: Members, real: Real): Promise<void> {
    const res = await putCategory(real.t, real.categoryId, {
      recipients: [{ operation: 'ADD', position: this.position, recipientId: real.recipients[this.index] }],
    });
    accepted(real.t, {
      rule: 'notification/categories/update-add-merges',
      res,
      what: this.toString(),
      statuses: [204],
    });
    model.set(this.index, this.position);
    await recipientsApplied(model, real, 'notification/categories/update-add-merges', this.toString());
  }
  toString(): string {
    return `ADD recipient#${this.index} at ${this.position}`;
  }
}

/** PUT with a DELETE item: the recipient is removed. */
export class DeleteRecipient implements fc.AsyncCommand<Members, Real> {
  readonly label: string;
  constructor(readonly index: number) {
    this.label = this.toString();
  }
  check(model: Readonly<Members>): boolean {
    return model.has(this.index);
  }
  async run(model: Members, real: Real): Promise<void> {
    const res = await putCategory(real.t, real.categoryId, {
      recipients: [{ operation: 'DELETE', position: model.get(this.index), recipientId: real.recipients[this.index] }],
    });
    accepted(real.t, {
      rule: 'notification/categories/update-delete-removes',
      res,
      what: this.toString(),
      statuses: [204],
    });
    model.delete(this.index);
    await recipientsApplied(model, real, 'notification/categories/update-delete-removes', this.toString());
  }
  toString(): string {
    return `DELETE recipient#${this.index}`;
  }
}
