import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryValues, fieldTypeExamples, fieldTypeValue, timestampOf, valueCases, webLink } from './index.ts';

describe('generators', () => {
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

describe('valueCases', () => {
  const pointer = (f: string) => `#/components/schemas/StandardEvent/properties/${f}` as const;
  it('gives the edges of a range with the wrong types asked for, and draws on both sides', () => {
    const { edges, arbitrary } = valueCases('event-management', pointer('severity'), 'severity', { wrongTypes: true });
    expect(edges.map((c) => [c.value, c.valid])).toEqual([
      [1, true],
      [0, false],
      [99, true],
      [100, false],
      [1.5, false],
      ['12', false],
      [true, false],
    ]);
    fc.assert(fc.property(arbitrary, (c) => c.valid === (Number(c.value) >= 1 && Number(c.value) <= 99)));
  });
  it("marks a drawn string whose UTF-16 length is beyond the maxLength as resting on code points, and a boolean's members", () => {
    fc.assert(
      fc.property(valueCases('event-management', pointer('code'), 'code').arbitrary, (c) => {
        const s = c.value as string;
        expect(c.valid).toBe([...s].length <= 16);
        expect(!!c.codePoints).toBe(s.length > 16 && /😀/u.test(s));
      }),
    );
    const ack = valueCases('event-management', pointer('acknowledged'), 'acknowledged').edges;
    expect(ack.map((c) => [c.value, c.valid])).toEqual([
      [true, true],
      [false, true],
    ]);
  });
});

describe('fieldTypeValue', () => {
  it('gives examples and drawn values of each type, tagged with whether the type takes them', () => {
    const members = { enumValues: ['LOW', 'HIGH'] };
    const examples = fieldTypeExamples(['ENUM', 'INTEGER'], members);
    expect(examples.filter((v) => v.type === 'ENUM').map((v) => [v.value, v.valid])).toEqual([
      ['LOW', true],
      ['HIGH', true],
      ['VERY_HIGH', false],
      ['low', false],
      [3, false],
    ]);
    fc.assert(fc.property(fieldTypeValue(['INTEGER'], members), (v) => v.valid === Number.isInteger(v.value)));
    expect(() => fieldTypeExamples(['FLOAT'], members)).toThrow(/FLOAT/);
  });
});

describe('utcTimestamp', () => {
  it('writes each form as named, the forms read as UTC or not marked', () => {
    expect(timestampOf('Z', 0).value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(timestampOf('+00:00', 0)).toMatchObject({ valid: true, formRead: true });
    expect(timestampOf('no-zone', 0)).toMatchObject({ valid: false, formRead: true });
    expect(timestampOf('month-13', 0).formRead).toBeUndefined();
  });
});
