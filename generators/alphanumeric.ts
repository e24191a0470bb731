import fc from 'fast-check';

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'.split('');

/** Alphanumeric strings of a length range, built from characters so shrinking keeps working. */
export function alphanumeric(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...ALNUM), { minLength, maxLength }).map((cs) => cs.join(''));
}
