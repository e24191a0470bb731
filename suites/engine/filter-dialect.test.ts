import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../tests/temp-dir.ts';
import { ConfigError } from './config-error.ts';
import { defaultDialect, jsonOperatorsDialect, loadFilterDialect } from './filter-dialect.ts';
import {
  after,
  and,
  before,
  between,
  eq,
  isIn,
  ne,
  or,
  satisfies,
  sortBy,
  startsWith,
  where,
  type FilterExpr,
} from './filter-expression.ts';
import { validateRunConfig } from './run-config.ts';

const TS = '2026-01-01T00:00:00Z';
const TS2 = '2026-02-01T00:00:00Z';

// Each row: the expression, what the suite sent before expressions existed (the default dialect
// must keep it, so that the reference and its variants keep their verdicts), and the JSON-operators spelling.
const ROWS: Array<[string, FilterExpr, unknown, unknown]> = [
  ['equalities', where({ typeId: 't', code: 'c' }), { typeId: 't', code: 'c' }, { typeId: 't', code: 'c' }],
  ['negation', ne('typeId', 't'), { typeId: { not: 't' } }, { typeId: { $ne: 't' } }],
  ['in', isIn('n', [1, 2]), { n: { in: { value: [1, 2] } } }, { n: { $in: [1, 2] } }],
  ['after', after('timestamp', TS), { timestamp: { after: TS } }, { timestamp: { $gt: TS } }],
  ['before', before('timestamp', TS), { timestamp: { before: TS } }, { timestamp: { $lt: TS } }],
  [
    'between',
    between('timestamp', TS, TS2),
    { timestamp: { between: `[${TS},${TS2})` } },
    { timestamp: { $gte: TS, $lt: TS2 } },
  ],
  ['between as a pair', between('timestamp', TS, TS2, true), { timestamp: { between: [TS, TS2] } }, undefined],
  ['startsWith', startsWith('name', 'a.b'), { name: { startsWith: 'a.b' } }, { name: { $regex: '^a\\.b' } }],
  [
    'a nested and stays nested',
    and(eq('typeId', 't'), and(eq('n', 1), eq('grp', 'a'))),
    { typeId: 't', and: [{ n: 1 }, { grp: 'a' }] },
    { typeId: 't', $and: [{ n: 1 }, { grp: 'a' }] },
  ],
  [
    'or beside an equality',
    where({ typeId: 't' }, or(after('timestamp', TS), eq('n', -1))),
    { typeId: 't', or: [{ timestamp: { after: TS } }, { n: -1 }] },
    { typeId: 't', $or: [{ timestamp: { $gt: TS } }, { n: -1 }] },
  ],
  [
    'two typeId expressions',
    and(eq('typeId', 'a'), and(eq('typeId', 'b'))),
    { typeId: 'a', and: [{ typeId: 'b' }] },
    { typeId: 'a', $and: [{ typeId: 'b' }] },
  ],
  [
    'two operators on one field merge',
    and(after('timestamp', TS), before('timestamp', TS2)),
    { timestamp: { after: TS, before: TS2 } },
    { timestamp: { $gt: TS, $lt: TS2 } },
  ],
  [
    'a colliding equality goes under and',
    and(startsWith('name', 's'), eq('name', 'sx')),
    { name: { startsWith: 's' }, and: [{ name: 'sx' }] },
    { name: { $regex: '^s' }, $and: [{ name: 'sx' }] },
  ],
  ['the empty conjunction', and(), {}, {}],
];

describe('filter dialects', () => {
  it.each(ROWS)('%s: the default dialect writes what the suite always sent', (_name, expr, old) => {
    expect(defaultDialect.encodeFilter(expr)).toEqual(old);
  });

  it.each(ROWS.filter((r) => r[3] !== undefined))(
    '%s: json-operators writes MongoDB operators',
    (_n, expr, _o, mongo) => {
      expect(jsonOperatorsDialect.encodeFilter(expr)).toEqual(mongo);
    },
  );

  it('writes sorts', () => {
    expect(defaultDialect.encodeSort(sortBy('n', 'desc'))).toBe('n,desc');
    expect(jsonOperatorsDialect.encodeSort(sortBy('n', 'desc'))).toBe('{"n":-1}');
    expect(jsonOperatorsDialect.encodeSort(sortBy('timestamp'))).toBe('{"timestamp":1}');
  });

  it('judges records as the documents give the operators', () => {
    const e = { n: 2, timestamp: '2026-01-15T00:00:00.000Z', name: 'abc' };
    expect(satisfies(e, and(isIn('n', [1, 2]), between('timestamp', TS, TS2), startsWith('name', 'ab')))).toBe(true);
    expect(satisfies(e, or(ne('n', 2), before('timestamp', TS)))).toBe(false);
    expect(satisfies(e, eq('timestamp', '2026-01-15T00:00:00Z'))).toBe(true);
  });

  it('loads a built-in, a module of the user, and refuses what is neither (ConfigError naming filterDialect)', async () => {
    expect((await loadFilterDialect(undefined)).name).toBe('default');
    expect((await loadFilterDialect('json-operators')).name).toBe('json-operators');
    await expect(loadFilterDialect('sql')).rejects.toThrow(/filterDialect: unknown dialect "sql"/);
    const dir = tempDir('dialect');
    const good = join(dir, 'good.ts');
    writeFileSync(
      good,
      "export const name = 'mine';\nexport const encodeFilter = (e: { op: string }) => ({ op: e.op });\nexport const encodeSort = (s: { field: string }) => s.field;\n",
    );
    const mine = await loadFilterDialect({ module: good });
    expect(mine.name).toBe('mine');
    expect(mine.encodeFilter(eq('a', 1))).toEqual({ op: 'eq' });
    const bad = join(dir, 'bad.ts');
    writeFileSync(bad, 'export const encodeFilter = () => ({});\n');
    await expect(loadFilterDialect({ module: bad })).rejects.toThrow(
      /filterDialect\.module: .* does not export encodeSort/,
    );
    await expect(loadFilterDialect({ module: join(dir, 'none.ts') })).rejects.toThrow(ConfigError);
  });

  it('validates the configuration key', () => {
    const base = { target: 'https://x', principals: { full: { token: 't' } } };
    expect(validateRunConfig({ ...base, filterDialect: 'json-operators' }).filterDialect).toBe('json-operators');
    expect(validateRunConfig({ ...base, filterDialect: { module: './d.ts' } }).filterDialect).toEqual({
      module: './d.ts',
    });
    expect(() => validateRunConfig({ ...base, filterDialect: 'sql' })).toThrow(
      /filterDialect: must be one of default, json-operators, or an object with module/,
    );
    expect(() => validateRunConfig({ ...base, filterDialect: { path: './d.ts' } })).toThrow(/filterDialect/);
  });
});
