// ESLint rule `contract-facts/no-bound-literal`: in the suites and audit/, a number that equals a
// bound the contracts state (or the value one beyond it) is read from the contracts
// (contracts/facts.ts), not typed again. A number that equals a bound by coincidence carries
// `// not a contract bound: <reason>` on its line or alone on the line above, or stands where the
// allowlist below says numbers are never bounds. The bounds are read from the OpenAPI documents
// each time the rule loads, so the rule follows the contracts.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from 'js-yaml';

const root = join(import.meta.dirname, '..');

/** Numbers below this are too common (0, 1, 2: an index, a first page, a pair) to mean a bound. */
export const FLOOR = 3;

/** The annotation that marks a number as no contract bound, with its reason. */
export const NOT_A_BOUND = /\/\/\s*not a contract bound: *\S/;

/**
 * Where a number is never a contract bound, whatever its value: as an argument of a call named
 * here (`argumentOf`), in the value of an object member of that name (`member`), or compared with
 * an expression whose last name is that one (`comparedWith`). Each entry says why; at most 10.
 * @type {readonly (({ argumentOf: string } | { member: string } | { comparedWith: string }) & { reason: string })[]}
 */
export const ALLOWLIST = [
  { argumentOf: 'sleep', reason: 'milliseconds to wait' },
  { argumentOf: 'setTimeout', reason: 'milliseconds to wait' },
  { argumentOf: 'toString', reason: 'a radix' },
  { argumentOf: 'parseInt', reason: 'a radix' },
  { argumentOf: 'seen', reason: 'how many characters of an answer a message shows' },
  { member: 'budget', reason: "a test's request budget" },
  { member: 'budgetPerRun', reason: "a test's request budget per property run" },
  { member: 'runs', reason: 'how many runs a property makes' },
  { comparedWith: 'status', reason: 'an HTTP status class (400 <= status < 500)' },
];

const MAX_KEYWORDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems'];
const MIN_KEYWORDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems'];

/**
 * The services whose bounds a file may type again: its own in `suites/<service>/`, every
 * service's elsewhere (the engine, audit/). A number in the notification suite is no
 * event-management bound.
 * @param {string} file the file's path from the project root
 * @param {readonly string[]} services
 * @returns {readonly string[]}
 */
export function servicesOf(file, services) {
  const own = /^suites\/([^/]+)\//.exec(file)?.[1];
  return own && services.includes(own) ? [own] : services;
}

/**
 * Every number each contract states as a bound (`maxLength`, `maximum`, `maxItems`, their `min`
 * and exclusive kin) or as a numeric `default`, and the value one beyond each bound (one either
 * side with `near`), with where it is stated: service -> value -> [`<pointer> <keyword>`].
 * @param {{ near?: boolean }} [o]
 * @returns {Map<string, Map<number, string[]>>}
 */
export function boundValues(o = {}) {
  /** @type {Map<string, Map<number, string[]>>} */
  const all = new Map();
  const contracts = join(root, 'contracts');
  for (const service of readdirSync(contracts).sort()) {
    const file = join(contracts, service, 'openapi.yaml');
    if (!existsSync(file)) continue;
    /** @type {Map<number, string[]>} */
    const out = new Map();
    all.set(service, out);
    const add = (/** @type {number} */ value, /** @type {string} */ what) => {
      if (value >= FLOOR) out.set(value, [...(out.get(value) ?? []), what]);
    };
    const walk = (/** @type {unknown} */ node, /** @type {string} */ pointer) => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        const at = `${pointer} ${key}`;
        const max = MAX_KEYWORDS.includes(key);
        if (typeof value === 'number' && (max || MIN_KEYWORDS.includes(key) || key === 'default')) {
          add(value, at);
          if (key === 'default' && !o.near) continue;
          if (max || o.near) add(value + 1, `${at} + 1`);
          if (!max || o.near) add(value - 1, `${at} - 1`);
        } else walk(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
    };
    walk(yaml.load(readFileSync(file, 'utf8')), '#');
  }
  return all;
}

/** The last name of an expression: `res.status` and `status` give `status`, `a.b()` gives `b`. */
function lastName(/** @type {any} */ node) {
  if (node?.type === 'Identifier') return node.name;
  if (node?.type === 'MemberExpression' && !node.computed) return node.property.name;
  if (node?.type === 'CallExpression') return lastName(node.callee);
  return undefined;
}

const COMPARISONS = ['<', '<=', '>', '>=', '===', '!==', '==', '!='];

/**
 * Whether a number stands where the allowlist says numbers are never bounds: the nodes between it
 * and its statement are searched for a call, a member or a comparison the allowlist names.
 */
function allowlisted(/** @type {any} */ literal) {
  let child = literal;
  for (let node = literal.parent; node; child = node, node = node.parent) {
    if (/Statement|Declaration$|^Program$|Function/.test(node.type) && node.type !== 'VariableDeclarator') return false;
    const name =
      node.type === 'CallExpression' && node.arguments.includes(child)
        ? { argumentOf: lastName(node.callee) }
        : node.type === 'Property' && node.value === child
          ? { member: node.key?.name ?? node.key?.value }
          : node.type === 'BinaryExpression' && COMPARISONS.includes(node.operator) && child === literal
            ? { comparedWith: lastName(node.left === child ? node.right : node.left) }
            : undefined;
    if (
      name &&
      ALLOWLIST.some((a) =>
        Object.entries(name).every(([k, v]) => /** @type {Record<string, unknown>} */ (a)[k] === v && v !== undefined),
      )
    )
      return true;
  }
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
const noBoundLiteral = {
  meta: {
    type: 'suggestion',
    docs: { description: 'a bound the contracts state is read from them, not typed again' },
    schema: [
      {
        type: 'object',
        properties: {
          // The census (lint/contract-bound-census.ts): one either side of every bound, ...
          near: { type: 'boolean' },
          // ... and every such number, annotated or allowlisted or not.
          every: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      bound:
        '{{value}} equals {{bounds}}: read it from contracts/facts.ts, or mark the line `// not a contract bound: <reason>`',
    },
  },
  create(context) {
    const o = /** @type {{ near?: boolean; every?: boolean }} */ (context.options[0] ?? {});
    const file = relative(root, context.filename).split('\\').join('/');
    const all = boundValues(o);
    /** @type {Map<number, string[]>} */
    const bounds = new Map();
    for (const service of servicesOf(file, [...all.keys()]))
      for (const [value, where] of all.get(service) ?? [])
        bounds.set(value, [...(bounds.get(value) ?? []), ...where.map((w) => `${service} ${w}`)]);
    const lines = context.sourceCode.lines;
    return {
      Literal(node) {
        if (typeof node.value !== 'number' || !node.loc) return;
        const where = bounds.get(node.value);
        if (!where) return;
        const line = node.loc.start.line;
        const annotated =
          NOT_A_BOUND.test(lines[line - 1]) || /^\s*\/\/\s*not a contract bound: *\S/.test(lines[line - 2] ?? '');
        if (!o.every && (annotated || allowlisted(node))) return;
        context.report({ node, messageId: 'bound', data: { value: String(node.value), bounds: where.join('; ') } });
      },
    };
  },
};

/** The plugin that carries the rule, as eslint.config.js registers it. */
export default { rules: { 'no-bound-literal': noBoundLiteral } };
