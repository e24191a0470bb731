import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { boundaryValues, invalidValue, validValue, webLink, type JsonSchema } from './index.ts';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

const eventSchema: JsonSchema = {
  type: 'object',
  required: ['entityId', 'timestamp'],
  properties: {
    entityId: { type: 'string', format: 'uuid' },
    timestamp: { type: 'string', format: 'date-time' },
    severity: { type: 'integer', minimum: 1, maximum: 99 },
    code: { type: 'string', maxLength: 16 },
    acknowledged: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string', maxLength: 4 }, maxItems: 5 },
    priority: { type: 'integer', enum: [1, 3, 5] },
  },
};

describe('generators', () => {
  const validate = ajv.compile(eventSchema);

  it('validValue only produces values the schema accepts', () => {
    fc.assert(
      fc.property(validValue(eventSchema), (v) => validate(v) === true),
      { numRuns: 300 },
    );
  });

  it('invalidValue breaks exactly the constraint it names, at the path it names', () => {
    fc.assert(
      fc.property(invalidValue(eventSchema, { rules: { '/severity': 'x/y/severity' } }), (inv) => {
        expect(validate(inv.value)).toBe(false);
        const paths = new Set(
          (validate.errors ?? []).map((e) =>
            e.keyword === 'required'
              ? `/${(e.params as { missingProperty: string }).missingProperty}`
              : e.instancePath.replace(/\/\d+$/, ''),
          ),
        );
        expect([...paths]).toEqual([inv.path]);
        if (inv.path === '/severity') expect(inv.rule).toBe('x/y/severity');
      }),
      { numRuns: 300 },
    );
  });

  it('boundaryValues sit exactly on each edge', () => {
    expect(boundaryValues({ type: 'integer', minimum: 1, maximum: 99 })).toEqual([
      { constraint: 'minimum', value: 1, valid: true },
      { constraint: 'minimum', value: 0, valid: false },
      { constraint: 'maximum', value: 99, valid: true },
      { constraint: 'maximum', value: 100, valid: false },
    ]);
    const code = boundaryValues({ type: 'string', maxLength: 16 });
    expect(code.map((b) => [(b.value as string).length, b.valid])).toEqual([
      [16, true],
      [17, false],
    ]);
    const prio = boundaryValues({ type: 'integer', enum: [1, 3, 5] });
    expect(
      prio
        .filter((b) => !b.valid)
        .map((b) => b.value)
        .sort(),
    ).toEqual([0, 2, 4, 6]);
  });
});

describe('webLink', () => {
  it('gives http(s) URLs that parse, with a host and a path', () => {
    fc.assert(
      fc.property(webLink(), (link) => {
        const url = new URL(link);
        expect(['http:', 'https:']).toContain(url.protocol);
        expect(url.hostname).toMatch(/^[a-z0-9]+(\.[a-z0-9]+)*$/);
        expect(url.href).toBe(link);
      }),
    );
  });
});
