import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

let compiled: ValidateFunction | undefined;

/** The schema's validator, compiled when a report is first read: a run that reads none does not pay for it. */
function validator(): ValidateFunction {
  if (compiled) return compiled;
  const schema = JSON.parse(
    readFileSync(new URL('./conformance-report.schema.json', import.meta.url), 'utf8'),
  ) as object;
  // The first error only: collecting every error of a large invalid input is quadratic in ajv.
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats.default(ajv);
  return (compiled = ajv.compile(schema));
}

/** The problems of a report against reporters/conformance-report.schema.json (empty: valid). */
export function reportSchemaErrors(report: unknown): string[] {
  const validate = validator();
  if (validate(report)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${e.instancePath || '(report)'} ${e.message}`);
}
