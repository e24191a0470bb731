import { describe, expect, it } from 'vitest';
import { regionAt, regionsOf } from '../selftest/regions.ts';
import { names, parseRegion, parseSelector, type TriageClass } from '../selftest/triage.ts';
import type { MutantRow } from '../selftest/mutant-row.ts';

// How the mutation self-test's triage names a class of mutants: a region of the reference file
// (found by the TypeScript parser, so that it holds when lines move), then optionally the line a
// mutant starts on, its mutators and the code it changes. The e2e tier checks the checked-in
// triage against every mutant the reference yields (tests/mutants.e2e.test.ts).
const source = [
  "import type { FastifyInstance } from 'fastify';",
  'export class Store {',
  '  get(id: string) {',
  '    const found = this.items.find((i) => i.id === id);',
  '    return found ?? null;',
  '  }',
  '}',
  'export function register(app: FastifyInstance) {',
  "  app.post('/events', async (_request, reply) => reply.code(201).send({ ok: true }));",
  '}',
].join('\n');

const at = (text: string) => {
  const start = source.indexOf(text);
  return regionAt(regionsOf('t.ts', source), start, start + text.length);
};

const mutant = (over: Partial<MutantRow>): MutantRow => ({
  id: '0',
  file: 'fixtures/reference/x.ts',
  line: 1,
  group: 'notification',
  mutator: 'EqualityOperator',
  original: 'i.id === id',
  replacement: 'i.id !== id',
  at: 'const found = this.items.find((i) => i.id === id);',
  nth: 1,
  region: 'Store.get.found',
  status: 'survived',
  killedBy: [],
  specFiles: 0,
  tests: 0,
  durationMs: 0,
  ...over,
});

describe('mutation triage by class', () => {
  it('places a mutant in the innermost named region: class, method, constant, route', () => {
    expect(at('i.id === id')).toBe('Store.get.found');
    expect(at('found ?? null')).toBe('Store.get');
    expect(at('reply.code(201)')).toBe('register.POST /events');
    expect(at('{ ok: true }')).toBe('register.POST /events');
    expect(at('true')).toBe('register.POST /events.ok');
    expect(regionsOf('t.ts', source).map((r) => r.path)).toEqual([
      'Store',
      'Store.get',
      'Store.get.found',
      'register',
      'register.POST /events',
      'register.POST /events.ok',
    ]);
  });

  it('reads a region key and a selector as the triage files write them', () => {
    expect(parseRegion('Store.get')).toEqual({ region: 'Store.get' });
    expect(parseRegion('Store.get @ return found ?? null;')).toEqual({
      region: 'Store.get',
      line: 'return found ?? null;',
    });
    expect(parseSelector('EqualityOperator')).toEqual({ mutators: ['EqualityOperator'] });
    expect(parseSelector('EqualityOperator, ConditionalExpression')).toEqual({
      mutators: ['EqualityOperator', 'ConditionalExpression'],
    });
    expect(parseSelector('EqualityOperator: i.id === id')).toEqual({
      mutators: ['EqualityOperator'],
      original: 'i.id === id',
    });
    expect(parseSelector('StringLiteral: \'a: b\' -> ""')).toEqual({
      mutators: ['StringLiteral'],
      original: "'a: b'",
      replacement: '""',
    });
  });

  it('holds the mutants of its region and those inside it, narrowed by line, mutator and code', () => {
    const cls = (over: Partial<TriageClass>): TriageClass => ({
      file: 'fixtures/reference/x.ts',
      region: 'Store',
      reason: 'a reason long enough',
      ...over,
    });
    const m = mutant({});
    expect(names(cls({}), m)).toBe(true);
    expect(names(cls({ region: 'Store.get' }), m)).toBe(true);
    expect(names(cls({ region: 'Store.ge' }), m)).toBe(false);
    expect(names(cls({ region: 'register' }), m)).toBe(false);
    expect(names(cls({ file: 'fixtures/reference/y.ts' }), m)).toBe(false);
    expect(names(cls({ line: m.at }), m)).toBe(true);
    expect(names(cls({ line: 'return found ?? null;' }), m)).toBe(false);
    expect(names(cls({ mutators: ['ConditionalExpression', 'EqualityOperator'] }), m)).toBe(true);
    expect(names(cls({ mutators: ['ConditionalExpression'] }), m)).toBe(false);
    expect(names(cls({ mutators: ['EqualityOperator'], original: 'i.id === id' }), m)).toBe(true);
    expect(names(cls({ mutators: ['EqualityOperator'], original: 'i.id === id', replacement: 'true' }), m)).toBe(false);
  });
});
