import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** A place in `suites/` where a rule ID is written literally. */
export interface SuiteSite {
  /** The rule ID written there. */
  id: string;
  /** Path from the project root, `/`-separated. */
  file: string;
  line: number;
  /**
   * `test`: the ID is in the rule list a test declares (the line is the declaring call's);
   * `check`: anywhere else (a check, a helper's argument, a table row).
   */
  kind: 'test' | 'check';
  /** The call the ID is written in (`emTest`, `rejected`, `t.check`), when it is inside one. */
  call?: string;
  /** For a test: its title, when written as a literal. */
  title?: string;
}

/** A test declaration in `suites/` (a call of a test wrapper given a rule list). */
export interface TestDeclaration {
  file: string;
  line: number;
  call: string;
  /** Its title as written; `${…}` stands for each expression of a template. */
  title?: string;
}

/** A site of the reference deployment where it enforces a rule: a `// rule: <id>` comment, or a refusal naming it. */
export interface ReferenceLine {
  file: string;
  line: number;
  /** What the comment says after the ID, if anything (nothing for a refusal). */
  comment: string;
  /** The first line of code under the comment, or the refusal's statement down to its call (trimmed). */
  code: string;
}

/** Every `.ts` file under `dir` (recursively), test files of the project itself left out. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .sort()
    .map((f) => join(dir, f));
}

const fromRoot = (file: string) => relative(projectRoot, file).split(sep).join('/');

/** Whether a callee declares a test whose first argument is its rule list (`ruleTest`, `emTest`, `test`). */
const DECLARES_TESTS = /(?:^|\.)(?:\w*Test|test)(?:\.each)?$/;

interface Frame {
  open: '(' | '[' | '{' | '${';
  /** For `(`: the callee written just before it. */
  callee?: string;
  calleeAt?: number;
  /** For `[`: the array is an argument of the call of the frame below. */
  argument?: boolean;
  /** For `${`: the template it interrupts, read so far (`${…}` standing for each expression). */
  template?: { value: string; start: number; named?: boolean };
  /** For `(`: the next string literal directly inside is the title of the test just declared. */
  awaitingTitle?: boolean;
  /** For the `(` of a table's `….each(rows, declare, fn)`: its title is the literal after `name:` inside it. */
  eachTitle?: boolean;
  declaration?: TestDeclaration;
  declared?: SuiteSite[];
}

const SPACE = /\s+/y;
const WORD = /[A-Za-z_$][\w$]*/y;
const CLOSING: Record<string, Frame['open']> = { ')': '(', ']': '[', '}': '{' };
// After these, a `/` starts a regular expression rather than a division.
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^', '']);

/**
 * The string literals of a TypeScript source equal to one of `ids`, each with the call it is an
 * argument of and whether it is in a test's rule list. A small scanner (strings, comments,
 * templates and regular expressions skipped; brackets tracked), so that it also runs in an
 * installation without the TypeScript compiler.
 */
export function scanRuleLiterals(
  text: string,
  file: string,
  ids: ReadonlySet<string>,
): { sites: SuiteSite[]; tests: TestDeclaration[] } {
  const out: SuiteSite[] = [];
  const tests: TestDeclaration[] = [];
  const stack: Frame[] = [];
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const lineOf = (pos: number) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  let lastSignificant = '';
  // Whether the tokens just read are `name :` (where a table's row declaration gives its title).
  let lastWord = '';
  let afterNameColon = false;

  const literal = (value: string, at: number, named = afterNameColon) => {
    const top = stack.at(-1);
    afterNameColon = false;
    const each = named ? [...stack].reverse().find((f) => f.eachTitle) : undefined;
    if (each?.declaration) {
      each.eachTitle = false;
      each.declaration.title = value;
    }
    if (top?.open === '(' && top.awaitingTitle) {
      top.awaitingTitle = false;
      if (top.declaration) top.declaration.title = value;
      for (const d of top.declared ?? []) d.title = value;
    }
    if (!ids.has(value)) return;
    const call = [...stack].reverse().find((f) => f.open === '(' && f.callee);
    if (top?.open === '[' && top.argument) {
      const owner = stack.at(-2);
      if (owner?.callee && DECLARES_TESTS.test(owner.callee)) {
        const site: SuiteSite = {
          id: value,
          file,
          line: lineOf(owner.calleeAt ?? at),
          kind: 'test',
          call: owner.callee,
        };
        (owner.declared ??= []).push(site);
        out.push(site);
        return;
      }
    }
    out.push({ id: value, file, line: lineOf(at), kind: 'check', ...(call?.callee ? { call: call.callee } : {}) });
  };

  // Reads a quoted string from `i` (at the quote); returns the index after it.
  const quoted = (i: number): number => {
    const q = text[i];
    let j = i + 1;
    let value = '';
    while (j < text.length && text[j] !== q && text[j] !== '\n') {
      if (text[j] === '\\') {
        value += text[j + 1] ?? '';
        j += 2;
      } else value += text[j++];
    }
    literal(value, i);
    return j + 1;
  };

  // Reads template text from `i` (after a backtick, or after the `}` closing a `${`); returns the
  // index after the closing backtick, or after `${` (a frame is pushed, holding the text so far).
  const template = (i: number, so: { value: string; start: number; named?: boolean }): number => {
    let j = i;
    let value = so.value;
    while (j < text.length) {
      const c = text[j];
      if (c === '\\') {
        value += text[j + 1] ?? '';
        j += 2;
      } else if (c === '`') {
        literal(value, so.start, so.named);
        return j + 1;
      } else if (c === '$' && text[j + 1] === '{') {
        stack.push({ open: '${', template: { value: `${value}\${…}`, start: so.start, named: so.named } });
        return j + 2;
      } else value += text[j++];
    }
    return j;
  };

  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    SPACE.lastIndex = i;
    if (SPACE.test(text)) {
      i = SPACE.lastIndex;
      continue;
    }
    if (c === "'" || c === '"') {
      i = quoted(i);
      lastSignificant = 'x';
      continue;
    }
    if (c === '`') {
      i = template(i + 1, { value: '', start: i, named: afterNameColon });
      lastSignificant = 'x';
      continue;
    }
    if (c === '/' && (BEFORE_REGEX.has(lastSignificant) || lastSignificant === 'return')) {
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== '\n') {
        if (text[j] === '\\') j++;
        else if (text[j] === '[') inClass = true;
        else if (text[j] === ']') inClass = false;
        else if (text[j] === '/' && !inClass) break;
        j++;
      }
      i = j + 1;
      lastSignificant = 'x';
      continue;
    }
    if (c === '(' || c === '[' || c === '{') {
      const callee = c === '(' ? calleeBefore(text, i) : undefined;
      const top = stack.at(-1);
      const argument = c === '[' && top?.open === '(' && (lastSignificant === '(' || lastSignificant === ',');
      if (argument && top.callee && DECLARES_TESTS.test(top.callee) && !top.declaration) {
        top.declaration = { file, line: lineOf(top.calleeAt ?? i), call: top.callee };
        tests.push(top.declaration);
      }
      const frame: Frame = {
        open: c,
        ...(callee && !/^(if|for|while|switch|catch|function|return)$/.test(callee.name)
          ? { callee: callee.name, calleeAt: callee.at }
          : {}),
        argument,
      };
      if (frame.callee?.endsWith('.each') && DECLARES_TESTS.test(frame.callee)) {
        frame.declaration = { file, line: lineOf(frame.calleeAt ?? i), call: frame.callee };
        frame.eachTitle = true;
        tests.push(frame.declaration);
      }
      stack.push(frame);
      afterNameColon = false;
      lastSignificant = c;
      i++;
      continue;
    }
    if (c === ')' || c === ']' || c === '}') {
      if (c === '}' && stack.at(-1)?.open === '${') {
        i = template(i + 1, stack.pop()!.template!);
        lastSignificant = 'x';
        continue;
      }
      const want = CLOSING[c];
      while (stack.length && stack.at(-1)!.open !== want) stack.pop();
      const closed = stack.pop();
      const owner = stack.at(-1);
      if (closed?.argument && owner?.declaration && !owner.declaration.title) owner.awaitingTitle = true;
      lastSignificant = c;
      i++;
      continue;
    }
    WORD.lastIndex = i;
    const word = WORD.exec(text);
    if (word) {
      lastSignificant = word[0] === 'return' ? 'return' : 'x';
      lastWord = word[0];
      afterNameColon = false;
      i += word[0].length;
      continue;
    }
    // Any other punctuation ends a title wait: the argument after the list was not a literal.
    const top = stack.at(-1);
    if (top?.awaitingTitle && c !== ',') top.awaitingTitle = false;
    afterNameColon = c === ':' && lastSignificant === 'x' && lastWord === 'name';
    lastSignificant = c;
    i++;
  }
  return { sites: out, tests };
}

const isWordChar = (c: string) => /[\w$]/.test(c);

/** The callee written just before the `(` at `open` (`t.check`, `emTest`), read backwards, and where it starts. */
function calleeBefore(text: string, open: number): { name: string; at: number } | undefined {
  let j = open - 1;
  const skipSpace = () => {
    while (j >= 0 && /\s/.test(text[j])) j--;
  };
  const parts: string[] = [];
  let at = open;
  for (;;) {
    skipSpace();
    const end = j + 1;
    while (j >= 0 && isWordChar(text[j])) j--;
    // No name here, or a number: the callee is what was read so far (`f().then(` gives `then`).
    if (j + 1 === end || /\d/.test(text[j + 1])) break;
    parts.unshift(text.slice(j + 1, end));
    at = j + 1;
    const before = j;
    skipSpace();
    // A dot at the end of an earlier line is the end of a sentence in a comment, not a member
    // access: formatted code puts a chain's dot at the start of the line.
    if (text[j] !== '.' || text.slice(j, before + 1).includes('\n')) break;
    j--;
  }
  return parts.length ? { name: parts.join('.'), at } : undefined;
}

/**
 * Where `suites/` writes each of `ids` literally (the tests declaring it and the calls naming it),
 * and every test declaration of `suites/`.
 */
export function suiteSites(ids: readonly string[]): { sites: SuiteSite[]; tests: TestDeclaration[] } {
  const wanted = new Set(ids);
  const scanned = sourceFiles(join(projectRoot, 'suites')).map((f) =>
    scanRuleLiterals(readFileSync(f, 'utf8'), fromRoot(f), wanted),
  );
  return { sites: scanned.flatMap((s) => s.sites), tests: scanned.flatMap((s) => s.tests) };
}

/** Whether a collected test's name (`file › name`, as `conformance coverage` lists it) is the one `d` declares. */
export function declares(d: TestDeclaration, test: string): boolean {
  if (d.title === undefined) return false;
  const pattern = d.title.split('${…}').map(escapeRegExp).join('.*');
  // A test inside a describe block is named after it too (`file › block › title`).
  return new RegExp(`^${escapeRegExp(d.file)} › (?:.* [›>] )?${pattern}$`, 's').test(test);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const REFERENCE_DIR = join(projectRoot, 'fixtures', 'reference');

/**
 * The reference's sites of `id`, each with its code: its `// rule: <id>` comments (and the line of
 * code under each), and the refusals that name it at the call (`refuses(seams, '<id>')`: the
 * statement that holds the call, down to it); undefined when the reference deployment is not in
 * this installation.
 */
export function referenceLines(id: string, dir = REFERENCE_DIR): ReferenceLine[] | undefined {
  if (!existsSync(dir)) return undefined;
  const out: ReferenceLine[] = [];
  for (const f of sourceFiles(dir)) {
    const text = readFileSync(f, 'utf8');
    const lines = text.split('\n');
    lines.forEach((line, n) => {
      const m = /\/\/\s*rule:\s*(\S+)(.*)$/.exec(line);
      if (!m || m[1].replace(/[,.;:]$/, '') !== id) return;
      const code = lines.slice(n + 1).find((l) => l.trim() && !l.trim().startsWith('//')) ?? '';
      out.push({
        file: fromRoot(f),
        line: n + 1,
        comment: m[2].trim().replace(/^[—–-]\s*/, ''),
        code: code.trim(),
      });
    });
    for (const call of refusalCalls(text)) {
      if (call.rule !== id) continue;
      const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
      const from = statementStart(lines, lineOf(call.at));
      const code = lines
        .slice(from, lineOf(call.end) + 1)
        .map((l) => l.trim())
        .join(' ')
        .replace(/\( /g, '(')
        .replace(/,? \)/g, ')');
      out.push({ file: fromRoot(f), line: from + 1, comment: '', code });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

/** The rule each `refuses(…)` call of a source text names, with the offsets where the call starts and ends. */
export function refusalCalls(text: string): { rule: string; at: number; end: number }[] {
  return [...text.matchAll(/\brefuses\(/g)].flatMap((m) => {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    do depth += text[end] === '(' ? 1 : text[end] === ')' ? -1 : 0;
    while (depth > 0 && ++end < text.length);
    return [...text.slice(m.index, end).matchAll(/'([a-z-]+\/[a-z0-9/-]+)'/g)].map((r) => ({
      rule: r[1],
      at: m.index,
      end,
    }));
  });
}

/** The first line of the statement that holds line `n`: below a line that ends a statement or opens a block. */
function statementStart(lines: readonly string[], n: number): number {
  let from = n;
  while (from > 0) {
    const above = lines[from - 1].trim();
    if (!above || above.startsWith('//') || /[;{}:]$/.test(above)) break;
    from--;
  }
  return from;
}

/**
 * How many places of `suites/` check each of `ids`: the sites outside a test's rule list (a check, a
 * helper's argument, a table row), as `explain` lists them. Computed, never stored.
 */
export function checkCounts(ids: readonly string[]): Map<string, number> {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const s of suiteSites(ids).sites) if (s.kind === 'check') counts.set(s.id, (counts.get(s.id) ?? 0) + 1);
  return counts;
}
