import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { INPUT_BOUNDS, readUntrustedJson, UntrustedInputError } from '../reporters/untrusted-input.ts';
import type { Har } from '../suites/engine/har.ts';

const schema = JSON.parse(readFileSync(new URL('./har.schema.json', import.meta.url), 'utf8')) as object;
// The first error only: collecting every error of a large invalid input is quadratic in ajv.
const ajv = new Ajv2020({ allErrors: false, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** What is wrong with a value that should be a HAR 1.2 log (empty: nothing): the schema, then each URL. */
export function harStructureErrors(value: unknown): string[] {
  if (!validate(value))
    return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '(log)'} ${e.message}`);
  const errors: string[] = [];
  (value as Har).log.entries.forEach((e, i) => {
    if (errors.length >= 3) return;
    let url: URL | undefined;
    try {
      url = new URL(e.request.url);
    } catch {
      errors.push(`/log/entries/${i}/request/url is not an absolute URL`);
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      errors.push(`/log/entries/${i}/request/url is not an http(s) URL`);
    try {
      decodeURI(url.pathname);
    } catch {
      errors.push(`/log/entries/${i}/request/url holds a malformed % escape`);
    }
  });
  return errors;
}

/** Reads a HAR file someone handed over; refuses (one line, exit 2) what is too large, too deep or not HAR. */
export function readHar(file: string): Har {
  const value = readUntrustedJson(file, 'a HAR file', INPUT_BOUNDS.har);
  const errors = harStructureErrors(value);
  if (errors.length)
    throw new UntrustedInputError('not-valid', `${file}: not a HAR 1.2 log: ${errors.slice(0, 3).join('; ')}`);
  return value as Har;
}
