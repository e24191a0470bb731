import { describe, expect, it } from 'vitest';
import { contractBound } from '../../contracts/facts.ts';
import { boundaryCases, contractSchema } from './contract-bounds.ts';

describe('bounds from the contracts', () => {
  it('reads a bound at a pointer, through $refs', () => {
    expect(contractBound('event-management', '#/components/schemas/EventType/properties/ttl', 'maximum')).toBe(1825);
    expect(contractBound('event-management', '#/components/schemas/Field/properties/values/items', 'maxLength')).toBe(
      36,
    );
    expect(contractSchema('event-management', '#/components/schemas/EventType/properties/name').type).toBe('string');
  });

  it('refuses a pointer the contract does not have, or a bound it does not give, naming it', () => {
    expect(() => contractSchema('event-management', '#/components/schemas/Nope')).toThrow(/has no #\/components/);
    expect(() =>
      contractBound('event-management', '#/components/schemas/EventType/properties/name', 'maximum'),
    ).toThrow(/no maximum/);
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
