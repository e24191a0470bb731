import { describe, expect, it } from 'vitest';
import { loadRules } from '../../contracts/catalog.ts';
import { ruleSelected } from './rule-index.ts';

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
