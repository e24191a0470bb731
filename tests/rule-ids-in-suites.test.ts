import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadRules } from '../contracts/catalog.ts';
import { SERVICES } from '../contracts/services.ts';
import { root } from './run-cli.ts';

/**
 * Rule IDs are written in full wherever the suites declare or check a rule, so that `git grep`
 * of an ID finds its tests (OpenID's requirement IDs at each check call): every ID-shaped literal
 * in suites/ is a rule of the catalog, and no literal is a rule ID cut short of its service.
 */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('rule IDs in the suites', () => {
  const ids = new Set(loadRules().map((r) => r.id));
  const shorts = new Map([...ids].map((id) => [id.slice(id.indexOf('/') + 1), id]));
  const sources = files(join(root, 'suites')).map((f) => ({
    f: f.slice(root.length + 1),
    text: readFileSync(f, 'utf8'),
  }));
  const FULL = new RegExp(`(['"\`])((?:${SERVICES.join('|')})/[a-z0-9-]+/[a-z0-9-]+)\\1`, 'g');
  const SHORT = /(?<![\w/.-])(['"`])([a-z0-9-]+\/[a-z0-9-]+)\1/g;

  test('every full ID written in suites/ is a rule of the catalog', () => {
    const unknown = sources.flatMap(({ f, text }) =>
      [...text.matchAll(FULL)].filter((m) => !ids.has(m[2])).map((m) => `${f}: ${m[2]}`),
    );
    expect(unknown).toEqual([]);
  });

  test('no rule ID is written short of its service (no R() completing it)', () => {
    const short = sources.flatMap(({ f, text }) =>
      [...text.matchAll(SHORT)]
        .filter((m) => shorts.has(m[2]))
        .map((m) => `${f}: '${m[2]}' (write '${shorts.get(m[2])}')`),
    );
    expect(short).toEqual([]);
    expect(sources.filter(({ text }) => /\bR\(/.test(text)).map(({ f }) => f)).toEqual([]);
  });

  test('the suites name most rules of the catalog literally', () => {
    const named = new Set(sources.flatMap(({ text }) => [...text.matchAll(FULL)].map((m) => m[2])));
    expect(named.size).toBeGreaterThan(ids.size * 0.8);
  });
});
