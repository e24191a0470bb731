import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { badItemsText, examplesOf, listWithBadItems } from './list-with-bad-items.ts';

const RULE = 'technical-token-manager/tokens-payload/invalid-user-tenant';
const constraints = {
  rule: RULE,
  valid: ['a', 'b', 'c', 'd'],
  bad: { 'no such tenant': 'x', 'an empty ID': '' },
  maxLength: 5,
};

describe('listWithBadItems', () => {
  it('puts each bad item among valid ones, within the longest list, and says where it is', () => {
    fc.assert(
      fc.property(listWithBadItems(constraints), (list) => {
        expect(list.rule).toBe(RULE);
        expect(list.items.length).toBeLessThanOrEqual(5);
        expect(list.bad.length).toBe(1);
        const [{ index, kind }] = list.bad;
        expect(list.items[index]).toBe(constraints.bad[kind as keyof typeof constraints.bad]);
        const valid = list.items.filter((_, i) => i !== index);
        expect(valid.every((v) => constraints.valid.includes(v))).toBe(true);
        expect(new Set(valid).size).toBe(valid.length);
      }),
      { numRuns: 200 },
    );
  });

  it('generates bad items first, in the middle and last', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(listWithBadItems(constraints), (list) => {
        const at = list.bad[0].index;
        seen.add(at === 0 ? 'first' : at === list.items.length - 1 ? 'last' : 'middle');
      }),
      { numRuns: 200, seed: 1 },
    );
    expect([...seen].sort()).toEqual(['first', 'last', 'middle']);
  });

  it('tries every kind first, in the middle and last of the shortest lists, before any it generates', () => {
    const examples = examplesOf(listWithBadItems(constraints));
    expect(examples.map((e) => `${e.items.join(',')} ${badItemsText(e)}`)).toEqual([
      'x,a no such tenant (item 1 of 2)',
      'a,x no such tenant (item 2 of 2)',
      'a,x,b no such tenant (item 2 of 3)',
      ',a an empty ID (item 1 of 2)',
      'a, an empty ID (item 2 of 2)',
      'a,,b an empty ID (item 2 of 3)',
    ]);
    expect(examplesOf(fc.constant(1))).toEqual([]);
  });

  it('shrinks to the shortest list a check of the first item only lets through', () => {
    // A check that reads only the first item: the list fails it when a bad item stands later.
    const firstOnly = (items: string[]) => items[0] !== 'x' && items[0] !== '';
    const out = fc.check(
      fc.property(listWithBadItems(constraints), (list) => !firstOnly(list.items)),
      { seed: 3, numRuns: 100 },
    );
    expect(out.failed).toBe(true);
    expect(out.counterexample?.[0].items.length).toBe(2);
    expect(out.counterexample?.[0].bad[0].index).toBe(1);
  });

  it('puts several bad items in one list where the rule is about each', () => {
    const several = listWithBadItems({ ...constraints, maxBad: 3 });
    fc.assert(
      fc.property(several, (list) => {
        expect(list.bad.length).toBeGreaterThanOrEqual(1);
        expect(list.bad.length).toBeLessThanOrEqual(3);
        expect(list.items.length).toBeLessThanOrEqual(5);
      }),
    );
    expect(
      examplesOf(several)
        .at(-1)
        ?.bad.map((b) => b.index),
    ).toEqual([0, 2]);
  });

  it('makes lists of one and of several items where every item is one the rule is about', () => {
    const each = listWithBadItems({ rule: RULE, valid: [], bad: { 'a category': 'c' }, maxBad: 3 });
    expect(examplesOf(each).map((e) => e.items.length)).toEqual([1, 2, 3]);
    fc.assert(fc.property(each, (list) => list.items.length >= 1 && list.bad.length === list.items.length));
  });
});
