import type { FormPart, HttpRequest, HttpResponse } from '../engine/http-client.ts';
import type { RuleContext, SendOptions } from '../engine/rule-test.ts';
import {
  addressType,
  certificateForm,
  exampleEmail,
  recipientName,
  seen,
  send,
  tag,
  templateForm,
} from './notification-client.ts';

type As = SendOptions['as'];

/** Deletes a resource for the ledger; 404 counts as already gone, anything else as a failed cleanup. */
async function remove(t: RuleContext, req: Parameters<RuleContext['send']>[0], as: As, what: string): Promise<void> {
  const res = await send(t, req, as);
  if (![200, 202, 204, 404].includes(res.status)) throw new Error(`could not delete ${what}: ${seen(res, 120)}`);
}

/** The integer ID of a documented `201 integer (int64)` answer, else undefined. */
export function createdId(res: HttpResponse): number | undefined {
  if (res.status !== 201) return undefined;
  if (Number.isSafeInteger(res.json)) return res.json as number;
  return typeof res.json === 'string' && /^[0-9]{1,16}$/.test(res.json) ? Number(res.json) : undefined;
}

/**
 * The function that tracks a record of `kind` for deletion by the request `del` gives (`noun`
 * names it in a failed cleanup, and, told so, in the ledger's label of another principal's record);
 * it returns the function that marks the record deleted by the test itself.
 */
function tracker(
  kind: string,
  noun: string,
  del: (id: string) => Parameters<RuleContext['send']>[0],
  labelled = false,
): (t: RuleContext, id: number | string, as?: As) => () => void {
  return (t, id, as) =>
    t.track({
      kind,
      id: String(id),
      label: labelled && as ? `${noun} of ${as}` : undefined,
      cleanup: () => remove(t, del(String(id)), as, `${noun} ${id}`),
    });
}

/**
 * The POST of `path` as it is (its body given by `body`), tracking for deletion by `track` the
 * record whose ID `idOf` finds in the answer.
 */
function poster<B>(
  path: string,
  body: (b: B) => Pick<HttpRequest, 'json' | 'form'>,
  idOf: (res: HttpResponse) => number | undefined,
  track: ReturnType<typeof tracker>,
): (t: RuleContext, b: B, as?: As) => Promise<HttpResponse> {
  return async (t, b, as) => {
    const res = await send(t, { method: 'POST', path, ...body(b) }, as);
    const id = idOf(res);
    if (id !== undefined) track(t, id, as);
    return res;
  };
}

/** Tracks a recipient for deletion. */
export const trackRecipient = tracker(
  'recipient',
  'recipient',
  (id) => ({ method: 'DELETE', path: `/recipient/${id}` }),
  true,
);

/** POST /recipient/ as it is, tracking whatever it created. */
export const postRecipient = poster('/recipient/', (json: unknown) => ({ json }), createdId, trackRecipient);

export interface CreatedRecipient {
  id: number;
  name: string;
  email: string;
}

/**
 * Creates a recipient with one personal email address for a test that needs one; a refusal ends
 * the test as skipped (creation itself is judged by recipients/create-201-id).
 */
export async function createRecipient(
  t: RuleContext,
  opts: { name?: string; email?: string; details?: unknown[]; as?: As } = {},
): Promise<CreatedRecipient> {
  const name = opts.name ?? recipientName(t);
  const email = opts.email ?? exampleEmail(t, 'rcp');
  const details = opts.details ?? [{ address: email, addresstypeid: addressType(t, 'email') }];
  const res = await postRecipient(t, { recipientname: name, recipientdetail: details }, opts.as);
  const id = createdId(res);
  if (id === undefined) t.skip(`could not create a recipient (${seen(res, 160)}); judged by recipients/create-201-id`);
  return { id, name, email };
}

const GROUP_ID_KEYS = ['groupId', 'recipientGroupId', 'groupid', 'recipientgroupid', 'id'];

/**
 * Best effort: the group ID in an answer the document declares only as "string" (a bare
 * integer, or an object with groupId / recipientGroupId / id, or a list item carrying `name`).
 */
export function groupIdFrom(json: unknown, name?: string): number | undefined {
  if (Number.isSafeInteger(json)) return json as number;
  const idOf = (o: Record<string, unknown>) => {
    for (const k of GROUP_ID_KEYS) if (Number.isSafeInteger(o[k])) return o[k] as number;
    return undefined;
  };
  if (Array.isArray(json)) {
    const item = json.find(
      (x) => x && typeof x === 'object' && name !== undefined && Object.values(x as object).includes(name),
    );
    return item ? idOf(item as Record<string, unknown>) : undefined;
  }
  if (json && typeof json === 'object') {
    const o = json as Record<string, unknown>;
    if (name === undefined || Object.values(o).includes(name) || !Object.values(o).some((v) => typeof v === 'string'))
      return idOf(o);
  }
  return undefined;
}

/** Tracks a recipient group for deletion. */
export const trackGroup = tracker('recipient group', 'recipient group', (id) => ({
  method: 'DELETE',
  path: `/recipient/recipientgroup/${id}`,
}));

/** POST /recipient/recipientgroup as it is; a created group is tracked when its ID can be found. */
export async function postGroup(
  t: RuleContext,
  body: Record<string, unknown>,
  as?: As,
): Promise<{ res: HttpResponse; id?: number }> {
  const res = await send(t, { method: 'POST', path: '/recipient/recipientgroup', json: body }, as);
  if (res.status < 200 || res.status >= 300) return { res };
  const name = typeof body.groupName === 'string' ? body.groupName : undefined;
  let id = groupIdFrom(res.json, name);
  if (id === undefined && name !== undefined) {
    const found = await send(t, { method: 'POST', path: '/recipient/recipientgroup/search', json: { name } }, as);
    id = groupIdFrom(found.json, name);
  }
  if (id !== undefined) trackGroup(t, id, as);
  else {
    t.track({
      kind: 'recipient group',
      id: name ?? '?',
      label: 'ID not found in the undocumented answers',
      cleanup: async () => {
        throw new Error(
          `recipient group "${name}" cannot be deleted: neither its create answer nor the search shows its ID`,
        );
      },
    });
  }
  return { res, id };
}

export interface CreatedGroup {
  id: number;
  name: string;
}

/** A group name unique to the run ("alphanumeric with special characters"). */
export function groupName(t: RuleContext, label = 'group'): string {
  return `${t.prefix}-${label}-${tag()}`;
}

/**
 * Creates a recipient group and finds its ID, best effort: the create answer is declared only as
 * "string", so a deployment whose answers show no recognisable ID ends the test as skipped.
 */
export async function createGroup(
  t: RuleContext,
  opts: { name?: string; members?: number[]; as?: As } = {},
): Promise<CreatedGroup> {
  const name = opts.name ?? groupName(t);
  const { res, id } = await postGroup(
    t,
    { groupName: name, recipientIds: (opts.members ?? []).map((recipientId) => ({ recipientId })) },
    opts.as,
  );
  if (res.status < 200 || res.status >= 300)
    t.skip(`could not create a recipient group (${seen(res, 160)}); judged by groups/create-200`);
  if (id === undefined)
    t.skip(
      'the group ID is needed, but neither the create answer nor the search (both declared only as "string") shows it in a recognised field (groupId, recipientGroupId, id)',
    );
  return { id, name };
}

/** Tracks a category for deletion. */
export const trackCategory = tracker('communication category', 'category', (id) => ({
  method: 'DELETE',
  path: '/communicationcategories/',
  query: { categoryIds: Number(id) },
}));

/** A valid CreateCommunicationCategory with a run-unique alphanumeric name and no recipients. */
export function categoryBody(t: RuleContext, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from: `${t.prefix}app`,
    msgCategoryName: `${t.prefix}cat${tag()}`,
    priority: 3,
    subject: 'ConformanceSubject',
    recipients: [],
    templates: [],
    ...over,
  };
}

/** POST /communicationcategories/ as it is, tracking what it created. */
export const postCategory = poster(
  '/communicationcategories/',
  (json: unknown) => ({ json }),
  createdId,
  trackCategory,
);

/** Creates a category for a test that needs one; a refusal ends the test as skipped. */
export async function createCategory(
  t: RuleContext,
  over: Record<string, unknown> = {},
  as?: As,
): Promise<{ id: number; body: Record<string, unknown> }> {
  const body = categoryBody(t, over);
  const res = await postCategory(t, body, as);
  const id = createdId(res);
  if (id === undefined)
    t.skip(`could not create a communication category (${seen(res, 160)}); judged by categories/create-201-id`);
  return { id, body };
}

/** Tracks a template set for deletion. */
export const trackTemplateSet = tracker('template set', 'template set', (id) => ({
  method: 'DELETE',
  path: `/template/${id}`,
}));

/** One template of a CreateTemplate answer. */
export interface CreatedTemplate {
  templateId: number;
  commChannelId?: number;
  commChannelName?: string;
}

/** The templatesetId of a CreateTemplate answer (201), else undefined. */
export function createdSetId(res: HttpResponse): number | undefined {
  const id = (res.json as { templatesetId?: unknown } | undefined)?.templatesetId;
  return res.status === 201 && Number.isSafeInteger(id) ? (id as number) : undefined;
}

/** POST /template/ with a form as it is, tracking the set it created. */
export const postTemplateSet = poster('/template/', (form: FormPart[]) => ({ form }), createdSetId, trackTemplateSet);

/** A template set name unique to the run. */
export function setName(t: RuleContext, label = 'set'): string {
  return `${t.prefix}-${label}-${tag()}`;
}

/** The HTML of a template file. */
export function templateHtml(label: string): string {
  return `<html><body><p>${label}: {{greeting}}</p></body></html>`;
}

export interface CreatedSet {
  id: number;
  name: string;
  templates: CreatedTemplate[];
  /** The file content per channel ID, as uploaded. */
  contents: Map<number, string>;
}

/**
 * Creates a template set with one file per channel ID given; a refusal ends the test as skipped
 * (creation is judged by templates/create-201).
 */
export async function createTemplateSet(
  t: RuleContext,
  opts: { name?: string; channels: number[]; params?: unknown[]; as?: As },
): Promise<CreatedSet> {
  const name = opts.name ?? setName(t);
  const contents = new Map<number, string>();
  const files = opts.channels.map((ch, i) => {
    const content = templateHtml(`${name} channel ${ch}`);
    contents.set(ch, content);
    return { name: `${tag()}-${i}.html`, content };
  });
  const info: Record<string, unknown> = {
    templatesetName: name,
    templateChannelAndFile: opts.channels.map((ch, i) => ({
      communicationChannel: ch,
      fileName: files[i].name,
      operation: 'ADD',
    })),
  };
  if (opts.params) info.templateParam = opts.params;
  const res = await postTemplateSet(t, templateForm(info, files), opts.as);
  const id = createdSetId(res);
  if (id === undefined) t.skip(`could not create a template set (${seen(res, 160)}); judged by templates/create-201`);
  const list = (res.json as { templateList?: unknown }).templateList;
  const templates = (Array.isArray(list) ? list : []).filter(
    (x): x is CreatedTemplate => !!x && Number.isSafeInteger((x as CreatedTemplate).templateId),
  );
  return { id, name, templates, contents };
}

/** The template of a created set for a channel ID. */
export function templateOf(t: RuleContext, set: CreatedSet, channel: number): CreatedTemplate {
  const found =
    set.templates.find((x) => x.commChannelId === channel) ??
    (set.templates.length === 1 ? set.templates[0] : undefined);
  if (!found)
    t.skip(`the CreateTemplate answer names no template of channel ${channel}; judged by templates/create-201`);
  return found;
}

/** Tracks a stored certificate for deletion. */
export const trackCertificate = tracker('certificate', 'certificate', (emailid) => ({
  method: 'DELETE',
  path: `/certificatestore/${encodeURIComponent(emailid)}`,
}));

/** POST /certificatestore/ as it is, tracking a stored certificate. */
export async function postCertificate(
  t: RuleContext,
  p: Parameters<typeof certificateForm>[0],
  as?: As,
): Promise<HttpResponse> {
  const res = await send(t, { method: 'POST', path: '/certificatestore/', form: certificateForm(p) }, as);
  if (res.status >= 200 && res.status < 300 && p.emailid) trackCertificate(t, p.emailid, as);
  return res;
}

/** A certificate email ID unique to the run. */
export function certificateEmail(t: RuleContext): string {
  return exampleEmail(t, 'cert');
}

/** Stores a certificate for a test that needs one; a refusal ends the test as skipped. */
export async function createCertificate(t: RuleContext, as?: As): Promise<string> {
  const emailid = certificateEmail(t);
  const res = await postCertificate(t, { fileName: `${t.prefix}.cer`, emailid, ownerid: `${t.prefix}owner` }, as);
  if (res.status !== 201)
    t.skip(`could not store a certificate (${seen(res, 160)}); judged by certificates/create-201-id`);
  return emailid;
}

/** Tracks an address the suite caused to bounce, so that it is removed from the blacklist again. */
export const trackBounce = tracker('bounced address', 'bounced address', (address) => ({
  method: 'DELETE',
  path: '/communicationcategories/bouncedEmailIds',
  json: { emailList: [address] },
}));
