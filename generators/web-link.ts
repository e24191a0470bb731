import fc from 'fast-check';

/** Options of `webLink`. */
export interface WebLinkConstraints {
  /** Path segments after the host, at most (default 3). */
  maxSegments?: number;
}

const ALNUM = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

/** A lower-case alphanumeric word of 1 to `max` characters. */
const word = (max: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 1, maxLength: max });

/**
 * An http(s) URL of ASCII letters and digits: a host of one to three labels and a few path
 * segments. Built from small alphabets rather than with `fc.webUrl()`, whose percent-encoded
 * full-Unicode alphabet holds about 80 MiB for the whole run once built.
 */
export function webLink(constraints: WebLinkConstraints = {}): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.array(word(12), { minLength: 1, maxLength: 3 }),
      fc.constantFrom('com', 'org', 'net', 'example'),
      fc.array(word(10), { maxLength: constraints.maxSegments ?? 3 }),
    )
    .map(([scheme, labels, tld, path]) => `${scheme}://${[...labels, tld].join('.')}/${path.join('/')}`);
}
