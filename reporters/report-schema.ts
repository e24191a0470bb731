import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const schema = JSON.parse(readFileSync(new URL('./conformance-report.schema.json', import.meta.url), 'utf8')) as object;
// The first error only: collecting every error of a large invalid input is quadratic in ajv.
const ajv = new Ajv2020({ allErrors: false, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(schema);

/** The problems of a report against reporters/conformance-report.schema.json (empty: valid). */
export function reportSchemaErrors(report: unknown): string[] {
  if (validate(report)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '(report)'} ${e.message}`);
}
