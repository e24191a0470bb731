import { describe, expect, it } from 'vitest';
import { boundaryCases, contractSchema } from './boundary-cases.ts';

describe('boundary cases from the contracts', () => {
  // contractBound's own readings are held by contracts/facts.test.ts.
  it('reads the schema at a pointer, through $refs, and names a pointer the contract does not have', () => {
    expect(contractSchema('event-management', '#/components/schemas/EventType/properties/name').type).toBe('string');
    expect(() => contractSchema('event-management', '#/components/schemas/Nope')).toThrow(/has no #\/components/);
  });

  it('derives the at-limit and over-limit cases, in one-, two- and four-byte characters', () => {
    const cases = boundaryCases('event-management', '#/components/schemas/EventType/properties/name', 'a name', {
      keyword: 'maxLength',
    });
    expect(cases.map((c) => [c.what, c.valid, !!c.codePoints])).toEqual([
      ['a name of 64 characters', true, false],
      ['a name of 64 characters (é…)', true, false],
      ['a name of 64 characters (😀…)', true, true],
      ['a name of 65 characters', false, false],
      ['a name of 65 characters (é…)', false, false],
      ['a name of 65 characters (😀…)', false, true],
    ]);
    for (const c of cases) expect([...(c.value as string)].length).toBe(c.valid ? 64 : 65);
    const ttl = boundaryCases('event-management', '#/components/schemas/EventType/properties/ttl', 'ttl');
    expect(ttl.map((c) => [c.value, c.valid])).toEqual([
      [1, true],
      [0, false],
      [1825, true],
      [1826, false],
    ]);
  });
});
