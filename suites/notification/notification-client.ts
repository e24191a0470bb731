import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { FormPart, HttpRequest, HttpResponse } from '../engine/http-client.ts';
import { describeResponse } from '../engine/checks/index.ts';
import { serviceTest, type RuleContext, type SendOptions } from '../engine/rule-test.ts';

export const SERVICE = 'notification' as const;

/** Declares a notification conformance test (`notificationTest.each`: one per row of a table). */
export const notificationTest = serviceTest(SERVICE);

/** The identifiers of seeded data the run configuration may carry under `fixtures.notification`. */
export interface NotificationFixtures {
  restrictedRecipientId?: number;
  subTenantId?: string;
  /**
   * The suite may send one more real broadcast, without a category, to the members of
   * `subTenantId` (a test sub-tenant); without it the suite broadcasts to the tenant's admins only.
   */
  subTenantBroadcast?: boolean;
  /**
   * The suite may send one real broadcast with broadcastType=all, which mails every member of the
   * tenant and of its sub-tenants (test addresses only); `tenantAdminEmails` names whom it must reach.
   */
  allBroadcast?: boolean;
  addressTypes?: { email?: number; officeEmail?: number; phone?: number; push?: number; iosPush?: number };
  channels?: { email?: number; sms?: number; push?: number };
  paramTypeId?: number;
  bounceDomain?: string;
  bounceLocalPrefix?: string;
  restrictedPhonePrefix?: string;
  senderDomain?: string;
}

/** The run configuration's `fixtures.notification` (empty when absent). */
export function fixturesOf(t: RuleContext): NotificationFixtures {
  const f = t.fixtures.notification;
  return f && typeof f === 'object' ? f : {};
}

/**
 * An integer ID the run configuration gives at `fixtures.notification.<key>`, or a skip naming the
 * missing key and `source`, the listing it is taken from.
 */
function configuredId(t: RuleContext, key: string, id: unknown, source: string): number {
  t.need(`fixtures.notification.${key}`);
  if (!Number.isInteger(id))
    t.needsConfiguration(
      `fixtures.notification.${key}`,
      `the run configuration has no fixtures.notification.${key} (${source})`,
    );
  return id as number;
}

/** An address type ID of the configuration, or a skip naming the missing key. */
export function addressType(t: RuleContext, kind: keyof NonNullable<NotificationFixtures['addressTypes']>): number {
  const source = `the ${kind} address type ID of GET /recipient/addresstype, whose record shape the document does not show`;
  return configuredId(t, `addressTypes.${kind}`, fixturesOf(t).addressTypes?.[kind], source);
}

/** A channel ID of the configuration, or a skip naming the missing key. */
export function channelId(t: RuleContext, kind: keyof NonNullable<NotificationFixtures['channels']>): number {
  const source = `the ${kind} channel ID of GET /communicationchannel/, whose record shape the document does not show`;
  return configuredId(t, `channels.${kind}`, fixturesOf(t).channels?.[kind], source);
}

/** The parameter type ID of the configuration, or a skip. */
export function paramTypeId(t: RuleContext): number {
  return configuredId(t, 'paramTypeId', fixturesOf(t).paramTypeId, 'a type ID of GET /paramtype/');
}

/** The India-region phone prefix (the configuration's, else +91 as the document's region implies). */
export function restrictedPrefix(t: RuleContext): string {
  t.need('fixtures.notification.restrictedPhonePrefix');
  return fixturesOf(t).restrictedPhonePrefix ?? '+91';
}

/** Whether the run has a principal of another tenant. */
export function hasOtherTenant(t: RuleContext): boolean {
  return t.session.tokens.has('otherTenant');
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** `n` random lower-case letters. */
export function letters(n: number): string {
  return [...randomBytes(n)].map((b) => LETTERS[b % 26]).join('');
}

/** A short random alphanumeric tag for names that allow digits. */
export function tag(): string {
  return `${letters(3)}${randomBytes(3).toString('hex')}`;
}

/**
 * The run prefix spelt in letters only, for fields that allow nothing else (recipient names are
 * "UTF-8 letters with spaces"): each digit of the prefix becomes the letter at its position.
 */
export function letterPrefix(t: RuleContext): string {
  const p = t.prefix.replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]).replace(/[^A-Za-z]/g, '');
  return p.charAt(0).toUpperCase() + p.slice(1);
}

/** A recipient name unique to this run and call: letters and spaces only. */
export function recipientName(t: RuleContext, label = 'Recipient'): string {
  return `${letterPrefix(t)} ${label} ${letters(8)}`;
}

/** An email address at example.com that carries the run prefix (alphanumeric, `_`, `.` only). */
export function exampleEmail(t: RuleContext, label = 'to'): string {
  return `${t.prefix}_${label}_${letters(6)}@example.com`;
}

/** The tenant of the fully granted principal: the `ten` claim of its token, else the configured host tenant. */
export async function homeTenant(t: RuleContext, as: SendOptions['as'] = 'full'): Promise<string | undefined> {
  try {
    const header = await t.session.tokens.authorization(as ?? 'full');
    const ten = decodeJwt(header.replace(/^Bearer\s+/i, '')).ten;
    if (typeof ten === 'string' && ten) return ten;
  } catch {
    // A token that is not a JWT: fall back to the configuration.
  }
  return as === 'full' ? t.session.tokens.homeTenant() : undefined;
}

/** Sends a request to the notification service. */
export function send(t: RuleContext, req: HttpRequest, as?: SendOptions['as']): Promise<HttpResponse> {
  return t.send(req, as === undefined ? {} : { as });
}

/** The multipart parts of a template set form: the templateInfo JSON text and the files. */
export function templateForm(
  info: unknown,
  files: Array<{ name: string; content: string | Buffer | Blob }>,
  infoText?: string,
): FormPart[] {
  const parts: FormPart[] = files.map((f) => ({
    name: 'templateFiles',
    file: { filename: f.name, content: f.content, contentType: 'text/html' },
  }));
  if (info !== undefined || infoText !== undefined)
    parts.push({ name: 'templateInfo', value: infoText ?? JSON.stringify(info) });
  return parts;
}

/** The multipart parts of a certificate form (`undefined` leaves a part out). */
export function certificateForm(p: {
  fileName?: string;
  content?: string;
  emailid?: string;
  ownerid?: string;
}): FormPart[] {
  const parts: FormPart[] = [];
  if (p.fileName !== undefined)
    parts.push({
      name: 'file',
      file: { filename: p.fileName, content: p.content ?? CERTIFICATE_TEXT, contentType: 'application/pkix-cert' },
    });
  if (p.emailid !== undefined) parts.push({ name: 'emailid', value: p.emailid });
  if (p.ownerid !== undefined) parts.push({ name: 'ownerid', value: p.ownerid });
  return parts;
}

/**
 * A self-signed X.509 certificate (PEM, P-256, valid until 2126): "file (certificate, .cer)" is
 * valid input under every reading only if it is a certificate a deployment can parse.
 */
export const CERTIFICATE_TEXT = `-----BEGIN CERTIFICATE-----
MIIBtDCCAVugAwIBAgIUYoZJIkQwT0xme0uWq9jDKoCfLq0wCgYIKoZIzj0EAwIw
LzEtMCsGA1UEAwwkQ29uZm9ybWFuY2UgU3VpdGUgVGVzdCBDZXJ0aWZpY2F0ZSBh
MCAXDTI2MTEyNjA4MTg0N1oYDzIxMjYxMTAyMDgxODQ3WjAvMS0wKwYDVQQDDCRD
b25mb3JtYW5jZSBTdWl0ZSBUZXN0IENlcnRpZmljYXRlIGEwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAAS1pfscqKH9nHCul1Y9wZ/EA+vLcnahMEPcKvwL86IyIIfg
CG/qhyc6fNfAadWffPn3dNTruv+Pq5rSVzT/RQ+ao1MwUTAdBgNVHQ4EFgQUoL2A
yMzEcXujLb3Pp9kTUTjCbDMwHwYDVR0jBBgwFoAUoL2AyMzEcXujLb3Pp9kTUTjC
bDMwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNHADBEAiB8dK7NNp0Q0HC4
XBgky348xYV+pqNfAWGenPKl4rCt+gIgSDqzvTRbbaWMA1iUhMnRDd+7O7+bCcIQ
u++/4iEmsis=
-----END CERTIFICATE-----
`;

/** A second certificate, for an update that replaces the first. */
export const OTHER_CERTIFICATE_TEXT = `-----BEGIN CERTIFICATE-----
MIIBtTCCAVugAwIBAgIUA6iyrUyJc+N2+yH5VLF60uvOHJgwCgYIKoZIzj0EAwIw
LzEtMCsGA1UEAwwkQ29uZm9ybWFuY2UgU3VpdGUgVGVzdCBDZXJ0aWZpY2F0ZSBi
MCAXDTI2MTEyNjA4MTg0N1oYDzIxMjYxMTAyMDgxODQ3WjAvMS0wKwYDVQQDDCRD
b25mb3JtYW5jZSBTdWl0ZSBUZXN0IENlcnRpZmljYXRlIGIwWTATBgcqhkjOPQIB
BggqhkjOPQMBBwNCAATg5/rRh4im6Wc+M3NV9iRAaE08QjhZWaQDG55BnlnJfGXN
UETe6otfgDNdlWsRflFAV2DCvUNWZm3iT7yScucpo1MwUTAdBgNVHQ4EFgQUMkIO
Ehu/ywf6QeG7THn9neyzUokwHwYDVR0jBBgwFoAUMkIOEhu/ywf6QeG7THn9neyz
UokwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiBgX3IHjfoWPmsR
4d+1Y7QA1PgFIWIGuv+A583FKmvzUgIhAPDX5+86sYTvgXW0iW68MWtNovwFiQBn
DABFcpD8u+bv
-----END CERTIFICATE-----
`;

export { mentions, integersIn, mentionsInteger } from '../engine/checks/index.ts';

/** A one-line description of a response for Expected/Received messages. */
export function seen(res: HttpResponse, chars = 240): string {
  return describeResponse(res, chars);
}

/** `yyyy-MM-dd HH:mm:ss` in UTC (AuditRequest). */
export function auditTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The range of each field of a date-time format. */
const FIELD_RANGES: Record<string, [number, number]> = {
  yyyy: [0, 9999],
  MM: [1, 12],
  dd: [1, 31],
  HH: [0, 23],
  mm: [0, 59],
  ss: [0, 60],
};

/** A test of whether a text is a date-time of `format` (fields yyyy, MM, dd, HH, mm, ss) with field values in range. */
function dateTimeOf(format: string): (v: unknown) => boolean {
  const fields = format.match(/yyyy|MM|dd|HH|mm|ss/g) ?? [];
  const pattern = new RegExp(`^${format.replace(/yyyy|MM|dd|HH|mm|ss/g, (f) => `(\\d{${f.length}})`)}$`);
  return (v) => {
    const m = typeof v === 'string' ? pattern.exec(v) : null;
    return (
      !!m && fields.every((f, i) => Number(m[i + 1]) >= FIELD_RANGES[f][0] && Number(m[i + 1]) <= FIELD_RANGES[f][1])
    );
  };
}

/** Whether a text is `yyyy-MM-dd HH:mm:ss` with field values in range. */
export const isAuditTime = dateTimeOf('yyyy-MM-dd HH:mm:ss');

/** Whether a text is `dd-MM-yyyy HH:mm:ss` with field values in range. */
export const isBounceTime = dateTimeOf('dd-MM-yyyy HH:mm:ss');

/** Whether a text is `HH:mm:ss-dd-MM-yyyy` with field values in range. */
export const isSendTime = dateTimeOf('HH:mm:ss-dd-MM-yyyy');

/** A short pause between polls of something the service does asynchronously. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `probe` until `done` holds or the deadline passes; returns the last answer. Used where the
 * service acts after answering (audit entries, bounce lists of sent mail).
 */
export async function poll<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let wait = 100;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() + wait > deadline) return value;
    await pause(wait);
    wait = Math.min(wait * 2, 1000);
  }
}

/** An ID that no tenant holds (beyond what a deployment allocates in practice, but a valid int64). */
export const UNKNOWN_ID = 8_999_999_999_999;

/** Why the other-tenant half of a rule was not tried: the run has no principal of another tenant. */
export const NO_OTHER = 'the otherTenant principal is not configured, so the other-tenant case was not tried';
