// Stryker's instrumenter places every mutant of the reference's rule-enforcing files into one
// instrumented copy (mutant schemata); a mutant is switched on at run time through the
// instrumented code's global namespace (see mutant-job.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { SERVICES, type ServiceName } from '../contracts/services.ts';
import { UsageError } from '../cli/usage-error.ts';
import { projectRoot } from './lane-worker.ts';
import type { MutantGroup, MutantRow } from './mutant-row.ts';
import { messageTextIgnorer } from './message-text.ts';
import { seamArgumentIgnorer } from './seam-arguments.ts';
import { triageKey } from './triage.ts';

/** The reference's files that enforce rules: not its server shell, seed data, test helpers or tests. */
const REFERENCE_FILES = 'fixtures/reference/{technical-token-manager,notification,event-management,shared}/**/*.ts';
const NOT_RULE_CODE = [
  '**/*.test.ts',
  '**/test-*.ts',
  '**/seed.ts',
  '**/seed-data.ts',
  '**/reference-context.ts',
  // How seam sets compose: with no variant on, the reference's own seams pass through untouched.
  'fixtures/reference/shared/seams.ts',
  // Shapers of answers only fault variants and the alternate profile give: the reference never calls them.
  'fixtures/reference/notification/answer-shapers.ts',
  '**/context.ts',
  '**/model.ts',
  '**/scopes.ts',
  // The process-wide key pair cache: made once, before any mutant is on, and a mutant of it would
  // leave every later deployment of the lane without a key (not the rules' code either way).
  '**/signing-key.ts',
];

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 160);

interface Location {
  start: { line: number; column: number };
  end: { line: number; column: number };
}

/** The source text at a location of Stryker's (lines and columns from 0). */
function textAt(source: string[], loc: Location): string {
  const lines = source.slice(loc.start.line, loc.end.line + 1);
  if (!lines.length) return '';
  if (lines.length === 1) return lines[0].slice(loc.start.column, loc.end.column);
  lines[0] = lines[0].slice(loc.start.column);
  lines[lines.length - 1] = lines[lines.length - 1].slice(0, loc.end.column);
  return lines.join('\n');
}

export interface Instrumented {
  /** Instrumented source by absolute path. */
  code: Record<string, string>;
  mutants: MutantRow[];
}

const quietLogger = {
  debug() {},
  info() {},
  trace() {},
  warn(m: string) {
    process.stderr.write(`${m}\n`);
  },
  error(m: string) {
    process.stderr.write(`${m}\n`);
  },
  fatal(m: string) {
    process.stderr.write(`${m}\n`);
  },
  isTraceEnabled: () => false,
  isDebugEnabled: () => false,
  isInfoEnabled: () => false,
  isWarnEnabled: () => true,
  isErrorEnabled: () => true,
  isFatalEnabled: () => true,
};

function groupOf(file: string): MutantGroup {
  const dir = file.split('/')[2];
  return (SERVICES as readonly string[]).includes(dir) ? (dir as ServiceName) : 'shared';
}

/** The reference's rule-enforcing files (relative paths), those matching `globs` when given. */
export function mutatedFiles(services: readonly ServiceName[], globs: string[]): string[] {
  const all = [...new Set(readdirRecursive(join(projectRoot, 'fixtures/reference')))]
    .map((f) => `fixtures/reference/${f}`)
    .filter((f) => picomatch.isMatch(f, REFERENCE_FILES) && !picomatch.isMatch(f, NOT_RULE_CODE))
    .filter((f) => {
      const g = groupOf(f);
      return g === 'shared' || services.includes(g);
    });
  return (globs.length ? all.filter((f) => globs.some((g) => picomatch.isMatch(f, g))) : all).sort();
}

function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split('\\').join('/'));
}

/** Instruments `files` with every mutant Stryker makes of them. */
export async function instrument(files: string[]): Promise<Instrumented> {
  let mod: typeof import('@stryker-mutator/instrumenter');
  let regionsOf: (typeof import('./regions.ts'))['regionsOf'];
  let regionAt: (typeof import('./regions.ts'))['regionAt'];
  try {
    mod = await import('@stryker-mutator/instrumenter');
    // The regions a mutant lies in come from the TypeScript parser, a development dependency too.
    ({ regionsOf, regionAt } = await import('./regions.ts'));
  } catch {
    throw new UsageError(
      '--mutants needs the development dependencies (npm ci): @stryker-mutator/instrumenter, typescript',
    );
  }
  const sources = files.map((f) => ({
    name: join(projectRoot, f),
    content: readFileSync(join(projectRoot, f), 'utf8'),
  }));
  const instrumenter = new mod.Instrumenter(quietLogger);
  const result = await instrumenter.instrument(
    sources.map((s) => ({ ...s, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [messageTextIgnorer, seamArgumentIgnorer] },
  );
  const lines = new Map(sources.map((s) => [s.name, s.content.split('\n')]));
  const regions = new Map(sources.map((s) => [s.name, regionsOf(s.name, s.content)]));
  /** The offset in its file of a place of Stryker's (lines and columns from 0). */
  const offset = (name: string, at: Location['start']) =>
    (lines.get(name) ?? []).slice(0, at.line).reduce((n, l) => n + l.length + 1, 0) + at.column;
  const code: Record<string, string> = {};
  for (const f of result.files) code[f.name] = f.content;
  const mutants: MutantRow[] = result.mutants
    .filter((m) => m.status !== 'Ignored')
    .map((m) => {
      const file = relative(projectRoot, m.fileName);
      return {
        id: m.id,
        file,
        line: m.location.start.line + 1,
        group: groupOf(file),
        mutator: m.mutatorName,
        original: collapse(textAt(lines.get(m.fileName) ?? [], m.location)),
        at: collapse(lines.get(m.fileName)?.[m.location.start.line] ?? ''),
        region: regionAt(
          regions.get(m.fileName) ?? [],
          offset(m.fileName, m.location.start),
          offset(m.fileName, m.location.end),
        ),
        replacement: collapse(m.replacement ?? ''),
        nth: 1,
        status: 'no-coverage',
        killedBy: [],
        specFiles: 0,
        tests: 0,
        durationMs: 0,
      };
    });
  // Numbers the mutants that share file, key and line text, in source order.
  const seen = new Map<string, number>();
  for (const m of [...mutants].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)) {
    const k = `${triageKey(m)}\u0000${m.at}`;
    m.nth = (seen.get(k) ?? 0) + 1;
    seen.set(k, m.nth);
  }
  return { code, mutants };
}

/** Every mutant Stryker makes of the rule-enforcing files of `services` (those matching `globs`). */
export async function listMutants(services: readonly ServiceName[], globs: string[] = []): Promise<MutantRow[]> {
  return (await instrument(mutatedFiles(services, globs))).mutants;
}
