import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundaryValues, webLink } from './index.ts';

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
