import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { assertKnownRules, readingText, ruleSelected } from './rule-index.ts';

const ids = loadRules().map((r) => r.id);
const selected = (glob: string) => ids.filter((id) => ruleSelected(id, [glob]));

// A rule ID is one name, not a path: `*` matches `/` too, so the globs a user types first work.
describe('--rule globs', () => {
  it.each([
    ['notification/*', (id: string) => id.startsWith('notification/')],
    ['notification/**', (id: string) => id.startsWith('notification/')],
    ['*thrott*', (id: string) => id.includes('thrott')],
    ['notification/recipients/*', (id: string) => id.startsWith('notification/recipients/')],
    ['*/errors/*', (id: string) => id.split('/')[1] === 'errors'],
    ['{notification,event-management}/*', (id: string) => !id.startsWith('technical-token-manager/')],
    ['event-management/events/severity-range', (id: string) => id === 'event-management/events/severity-range'],
    ['notification/limits/throttling-42?', (id: string) => id === 'notification/limits/throttling-429'],
  ])('%s', (glob, expected) => {
    const want = ids.filter(expected);
    expect(want.length).toBeGreaterThan(0);
    expect(selected(glob)).toEqual(want);
  });

  it('selects the throttling rules of both services with *thrott*', () => {
    expect(selected('*thrott*')).toEqual(
      expect.arrayContaining([
        'technical-token-manager/throttling/too-many-requests',
        'notification/limits/throttling-429',
      ]),
    );
  });

  it('selects every rule without a glob, and none with one that matches nothing', () => {
    expect(ids.filter((id) => ruleSelected(id, []))).toEqual(ids);
    expect(selected('nothing/*')).toEqual([]);
  });
});

describe('the rule index', () => {
  it('takes the catalog IDs of every service and refuses any other, naming it', () => {
    expect(() =>
      assertKnownRules(
        [
          'technical-token-manager/identification/field-types',
          'notification/groups/create-200',
          'event-management/events/severity-range',
        ],
        'here',
      ),
    ).not.toThrow();
    // An unknown ID of a known service is put together, so that the suites hold no ID-shaped literal of none.
    for (const id of [
      ['notification', 'groups', 'no-such-rule'].join('/'),
      'no-such-service/groups/create-200',
      'notification',
    ])
      expect(() => assertKnownRules(['notification/groups/create-200', id], 'ruleTest "x"')).toThrow(
        `ruleTest "x" names unknown rule ID(s): ${id}`,
      );
  });

  it("finds a reading's sentence by the rule's and the reading's IDs", () => {
    expect(readingText('notification/groups/name-required', 'blank-is-missing')).toMatch(/\w/);
    expect(readingText('notification/groups/name-required', 'no-such-reading')).toBeUndefined();
    expect(readingText('no-such-service/x/y', 'blank-is-missing')).toBeUndefined();
  });
});
