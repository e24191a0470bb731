// What the recipients spec files share.
import fc from 'fast-check';
import type { RuleContext } from '../engine/rule-test.ts';
import { addressType, exampleEmail, recipientName, send } from './notification-client.ts';
import { postRecipient } from './notification-resources.ts';

/**
 * The code a refused name must carry: whether a blank name is a missing or an invalid property is
 * not said, so only names with text are held to invalidRequestBodyProperty.
 */
export function nameCode(name: unknown): 'invalidRequestBodyProperty' | undefined {
  return typeof name === 'string' && name.trim() === '' ? undefined : 'invalidRequestBodyProperty';
}

/**
 * A PUT /recipient/ body for a recipient. It carries one valid address: the document does not say
 * whether recipientdetail may be omitted or empty, so input the suite sends as valid has one.
 */
export function update(
  t: RuleContext,
  id: number,
  over: Record<string, unknown> = {},
  email?: string,
): Record<string, unknown> {
  return {
    recipientid: id,
    recipientdetail: [{ address: email ?? exampleEmail(t, 'upd'), addresstypeid: addressType(t, 'email') }],
    ...over,
  };
}

export function getRecipient(t: RuleContext, id: number | string, as?: 'otherTenant') {
  return send(t, { method: 'GET', path: `/recipient/${id}` }, as);
}

export function putRecipient(t: RuleContext, body: unknown, as?: 'otherTenant') {
  return send(t, { method: 'PUT', path: '/recipient/', json: body }, as);
}

/** Valid email addresses, all different, for a recipientdetail around a bad one. */
export function validAddresses(t: RuleContext): Record<string, unknown>[] {
  const type = addressType(t, 'email');
  return ['a', 'b', 'c'].map((k) => ({ address: exampleEmail(t, `ok${k}`), addresstypeid: type }));
}

/** POST /recipient/ of a new recipient with one address. */
export function postOneAddress(t: RuleContext, address: unknown, addresstypeid: unknown) {
  return postRecipient(t, { recipientname: recipientName(t), recipientdetail: [{ address, addresstypeid }] });
}

export function searchRecipients(t: RuleContext, name: unknown, as?: 'otherTenant') {
  return send(t, { method: 'POST', path: '/recipient/search', json: { name } }, as);
}

/** Email addresses: the charset is letters, digits, `_`, `.` and `@`; one foreign character breaks it. */
export const emailCase = fc.record({
  parts: fc.array(fc.stringMatching(/^[A-Za-z0-9_]{1,6}$/), { minLength: 1, maxLength: 3 }),
  bad: fc.option(fc.constantFrom('!', '#', ' ', '-', '+', '%', '&', '*', '~', ','), { nil: undefined }),
  at: fc.nat(),
});

/**
 * Phone numbers at the edges of E.164 ('+', a country code not starting with 0, at most 15 digits).
 * '+49' (a country code alone) has the format; whether it must also be a complete number is our reading.
 */
export const SHORT_PHONE = '+49';
export const PHONE_EDGES = [
  { number: `+4${'9'.repeat(14)}`, valid: true },
  { number: `+4${'9'.repeat(15)}`, valid: false },
  { number: '0049 170 1234567', valid: false },
  { number: '+0123456789', valid: false },
  { number: '+49 170 1234567', valid: false },
  { number: '+49abc1234', valid: false },
  { number: '4917012345678', valid: false },
  { number: '+', valid: false },
  { number: 'tel:+4917012345678', valid: false },
];

/** Valid E.164 numbers of 8 to 15 digits outside the India region (country codes starting 1 to 8). */
export const phoneNumber = fc
  .tuple(fc.constantFrom('1', '2', '3', '4', '5', '6', '7', '8'), fc.stringMatching(/^[0-9]{7,14}$/))
  .map(([cc, rest]) => `+${cc}${rest}`);

/**
 * Recipient names that break the rule: a digit, a sign, an empty or blank text, another type,
 * whitespace that is not a space (tab, newline), an emoji (astral, not a letter) and the marks
 * & / ' that names of people often hold.
 */
export const BAD_NAMES: unknown[] = [
  'Anna 2',
  'R2D2',
  'Anna!',
  'Anna-Maria',
  'anna@example',
  '',
  '   ',
  42,
  ['Anna'],
  'Anna\tMaria',
  'Anna\nMaria',
  'Anna \u{1F600}',
  'Anna & Maria',
  'Anna/Maria',
  "Anna O'Neil",
];

/**
 * A no-break space (U+00A0) is a space character of Unicode; whether "letters with spaces" takes
 * it is our reading (we read "spaces" as U+0020), so a refusal is expected but an accepted one is
 * a warning, never a failure.
 */
export const NBSP_NAME = 'Anna\u00A0Maria';

/** Recipient names of UTF-8 letters and spaces, with and without marks and several words. */
export const nameCase = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('Anna', 'Zoë', 'Ångström', 'Łukasz', 'Çelik', 'Ñandú', 'Øystein', 'Ελένη', 'Юлия'),
      fc.constantFrom('', ' Maria', ' de la Cruz'),
    )
    .map(([a, b]) => ({ name: `${a}${b}` as unknown, valid: true })),
  fc
    .tuple(fc.stringMatching(/^[A-Za-z]{1,6}$/), fc.constantFrom('0', '7', '_', '.', '#', '?'))
    .map(([a, c]) => ({ name: `${a}${c}` as unknown, valid: false })),
);
