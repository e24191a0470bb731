import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';

// The project's static import graph, read from its TypeScript sources: every `import … from` and
// `export … from` with a relative specifier, `import type` included (a type-only cycle still ties
// the files together). Bare package specifiers and dynamic `import()` are not edges.

/** Folders that hold no source of the project: dependencies and what runs leave behind. */
const SKIPPED = new Set([
  'node_modules',
  'conformance-report',
  'conformance-certification',
  'allure-results',
  'allure-report',
]);

/** One file's imports from another, with the names it takes. */
export interface ImportEdge {
  from: string;
  to: string;
  /** As written: `name`, `name as alias`, `default as x`, `* as ns`, `*`, `type Name`. */
  names: string[];
  /** Every import along this edge is erased at run time (`import type`, `{ type X }`). */
  typeOnly: boolean;
}

/** Files whose imports reach each other (a strongly connected component), and cycles through every edge of it. */
export interface ImportCycle {
  files: string[];
  edges: ImportEdge[];
  /** Each a path `[a, b, …, a]`; together they pass through every edge of the component. */
  paths: string[][];
  /** Some cycle of the component is made of run-time imports only (none of them `import type`). */
  runTime: boolean;
}

/** Every `.ts` file under `root` (relative, `/`-separated), but dependencies, dot folders and run output. */
export function sourceFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(root, path));
    else if (entry.isFile() && entry.name.endsWith('.ts')) files.push(relative(root, path).split(sep).join('/'));
  }
  return files.sort();
}

/**
 * The file a relative specifier names, as TypeScript resolves it (`null`: none, undefined: a package
 * or a file that is not TypeScript, such as JSON, which imports nothing).
 */
function resolveSpecifier(root: string, from: string, specifier: string): string | null | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = join(root, dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  if (!found) return null;
  return found.endsWith('.ts') ? relative(root, found).split(sep).join('/') : undefined;
}

function importedNames(clause: ts.ImportClause | undefined): { names: string[]; typeOnly: boolean } {
  if (!clause) return { names: ['(side effects)'], typeOnly: false };
  const prefix = clause.isTypeOnly ? 'type ' : '';
  const names: string[] = [];
  const values: boolean[] = [];
  if (clause.name) {
    names.push(`${prefix}default as ${clause.name.text}`);
    values.push(!clause.isTypeOnly);
  }
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) {
    names.push(`${prefix}* as ${bindings.name.text}`);
    values.push(!clause.isTypeOnly);
  } else if (bindings) {
    for (const element of bindings.elements) {
      const typeOnly = clause.isTypeOnly || element.isTypeOnly;
      const name = element.propertyName ? `${element.propertyName.text} as ${element.name.text}` : element.name.text;
      names.push(`${typeOnly ? 'type ' : ''}${name}`);
      values.push(!typeOnly);
    }
  }
  // `import {} from` still loads the module; `import { type A } from` does not.
  return { names, typeOnly: clause.isTypeOnly || (values.length > 0 && !values.some(Boolean)) };
}

function exportedNames(declaration: ts.ExportDeclaration): { names: string[]; typeOnly: boolean } {
  const prefix = declaration.isTypeOnly ? 'type ' : '';
  const clause = declaration.exportClause;
  if (!clause) return { names: [`${prefix}*`], typeOnly: declaration.isTypeOnly };
  if (ts.isNamespaceExport(clause))
    return { names: [`${prefix}* as ${clause.name.text}`], typeOnly: declaration.isTypeOnly };
  const names = clause.elements.map((element) => {
    const typeOnly = declaration.isTypeOnly || element.isTypeOnly;
    const name = element.propertyName ? `${element.propertyName.text} as ${element.name.text}` : element.name.text;
    return `${typeOnly ? 'type ' : ''}${name}`;
  });
  return { names, typeOnly: declaration.isTypeOnly || clause.elements.every((element) => element.isTypeOnly) };
}

/** The import graph of some files: its edges, and the relative specifiers that name no file. */
export interface ImportGraph {
  /** One per (importer, imported) pair, its names merged. */
  edges: ImportEdge[];
  /** `file: specifier`, for each relative import that names no file (an edge the graph would miss). */
  unresolved: string[];
}

/** The import graph of the given files (relative to `root`). */
export function importGraph(root: string, files: string[]): ImportGraph {
  const edges = new Map<string, ImportEdge>();
  const unresolved: string[] = [];
  for (const from of files) {
    const source = ts.createSourceFile(from, readFileSync(join(root, from), 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      const to = resolveSpecifier(root, from, specifier.text);
      if (to === null) unresolved.push(`${from}: ${specifier.text}`);
      if (!to) continue;
      const { names, typeOnly } = isImport ? importedNames(statement.importClause) : exportedNames(statement);
      const key = `${from}\0${to}`;
      const edge = edges.get(key);
      if (edge) {
        edge.names.push(...names);
        edge.typeOnly &&= typeOnly;
      } else edges.set(key, { from, to, names, typeOnly });
    }
  }
  return { edges: [...edges.values()], unresolved };
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function components(edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** The shortest path from `start` to `goal` along `edges` (breadth first), both ends included. */
function shortestPath(edges: ImportEdge[], start: string, goal: string): string[] {
  const cameFrom = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length > 0 && !cameFrom.has(goal)) {
    const file = queue.shift()!;
    for (const { from, to } of edges)
      if (from === file && !cameFrom.has(to)) {
        cameFrom.set(to, file);
        queue.push(to);
      }
  }
  const path = [goal];
  while (path[0] !== start) path.unshift(cameFrom.get(path[0])!);
  return path;
}

/** The import cycles among `edges`: one entry per component, with cycles that pass through each of its edges. */
export function importCycles(edges: ImportEdge[]): ImportCycle[] {
  return components(edges).map((files) => {
    const inside = edges.filter(({ from, to }) => files.includes(from) && files.includes(to));
    const paths: string[][] = [];
    const covered = new Set<ImportEdge>();
    for (const edge of inside) {
      if (covered.has(edge)) continue;
      const path = [edge.from, ...shortestPath(inside, edge.to, edge.from)];
      paths.push(path);
      for (let i = 0; i + 1 < path.length; i++)
        covered.add(inside.find(({ from, to }) => from === path[i] && to === path[i + 1])!);
    }
    const runTime = components(inside.filter((edge) => !edge.typeOnly)).length > 0;
    return { files, edges: inside, paths, runTime };
  });
}

/** A cycle as the next engineer reads it: each path `a.ts -> b.ts -> a.ts`, then what each file takes from the next. */
export function describeCycle(cycle: ImportCycle): string {
  const kind = cycle.runTime ? 'run-time' : 'type-only';
  const lines = [`${cycle.files.length} files, ${kind}:`];
  for (const path of cycle.paths) {
    const typeOnly = path
      .slice(1)
      .some((to, i) => cycle.edges.find((e) => e.from === path[i] && e.to === to)!.typeOnly);
    lines.push(`  ${path.join(' -> ')}${typeOnly ? '  (type-only)' : ''}`);
  }
  for (const edge of cycle.edges) lines.push(`    ${edge.from} imports { ${edge.names.join(', ')} } from ${edge.to}`);
  return lines.join('\n');
}
