// The regions of a reference file that the triage names classes of mutants by: its functions,
// classes, methods, constants and route registrations, found by the TypeScript parser, so that a
// class keeps naming the same code when lines move.
import ts from 'typescript';

/**
 * The named spans of a source file, each with its path: the names of the declarations it lies in,
 * outermost first, joined by `.` (`EventService.create.record`). Named are function, class, method,
 * accessor, property, variable and object-member declarations with a plain name, and a route a
 * Fastify app registers (`app.post('/events', …)` is `POST /events`).
 */
export interface Region {
  path: string;
  start: number;
  end: number;
}

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** The name a node gives the region it spans, if it names one. */
function nameOf(node: ts.Node): string | undefined {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isVariableDeclaration(node) ||
    ts.isPropertyAssignment(node)
  ) {
    const name = node.name;
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isPrivateIdentifier(name))) return name.text;
    return undefined;
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    ROUTE_METHODS.has(node.expression.name.text) &&
    node.arguments.length >= 2 &&
    ts.isStringLiteralLike(node.arguments[0])
  )
    return `${node.expression.name.text.toUpperCase()} ${node.arguments[0].text}`;
  return undefined;
}

/** Every named region of `source` (a file's text), outermost first. */
export function regionsOf(fileName: string, source: string): Region[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const regions: Region[] = [];
  const visit = (node: ts.Node, path: string) => {
    const name = nameOf(node);
    const here = name === undefined ? path : path ? `${path}.${name}` : name;
    if (name !== undefined) regions.push({ path: here, start: node.getStart(file), end: node.getEnd() });
    ts.forEachChild(node, (child) => visit(child, here));
  };
  visit(file, '');
  return regions;
}

/** The path of the innermost region that holds the span `[start, end)` ('' at the top of the file). */
export function regionAt(regions: Region[], start: number, end: number): string {
  let best: Region | undefined;
  for (const r of regions)
    if (r.start <= start && end <= r.end && (!best || r.end - r.start <= best.end - best.start)) best = r;
  return best?.path ?? '';
}
