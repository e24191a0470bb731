import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import yaml from 'js-yaml';
import { SERVICES, SERVICE_INFO, type ServiceName } from '../contracts/services.ts';
import { TransportError, type HttpClient } from '../suites/engine/http-client.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { testKey } from '../suites/engine/rule-test.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { TokenProvider, TokenError, type PrincipalName } from '../suites/engine/token-provider.ts';
import { PrincipalUnavailable } from '../suites/engine/unjudged.ts';
import { missingRequirements } from '../certification/config-requirements.ts';

// What `doctor` checks of a configuration, and what a run leaves unjudged for each piece not
// ready: `doctor` prints it, `run` computes the same and does not start the tests it names, so
// that a run skips exactly what `doctor` predicted.

const root = fileURLToPath(new URL('..', import.meta.url));

export type Status = 'ready' | 'missing' | 'failed' | 'n/a';

export interface Row {
  check: string;
  status: Status;
  detail: string;
  /** What the suites look for in a test's source to know it needs this piece. */
  needle?: { words: string[]; service?: ServiceName };
  /** The fully granted principal's credentials are refused: the run stops at its start (exit 3). */
  stopsRun?: boolean;
}

/**
 * The fixtures the suites read (README, "fixtures"), and for those a read exists for, the GET
 * that shows the target holds it.
 */
const FIXTURES: { key: string; default?: string; read?: (id: string) => { service: ServiceName; path: string } }[] = [
  { key: 'technicalTokenManager.userTenantIds' },
  { key: 'technicalTokenManager.unprovisionedTenantId' },
  { key: 'notification.subTenantId' },
  { key: 'notification.tenantAdminEmails' },
  { key: 'notification.addressTypes' },
  { key: 'notification.channels' },
  { key: 'notification.paramTypeId' },
  { key: 'notification.bounceDomain' },
  { key: 'notification.bounceLocalPrefix' },
  {
    key: 'notification.restrictedRecipientId',
    read: (id) => ({ service: 'notification', path: `/recipient/${encodeURIComponent(id)}` }),
  },
  { key: 'eventManagement.entityIds' },
  { key: 'eventManagement.assetTypeIds' },
  ...[
    'standardEventTypeId',
    'baseEventTypeId',
    'sharedEventTypeId',
    'globalEventTypeId',
    'bigEventTypeId',
    'limitEventTypeId',
  ].map((k) => ({
    key: `eventManagement.${k}`,
    // The suites fall back on the documented names of the two core types.
    default: { standardEventTypeId: 'PlatformStandardEvent', baseEventTypeId: 'BaseEvent' }[k],
    read: (id: string) => ({ service: 'event-management' as const, path: `/eventTypes/${encodeURIComponent(id)}` }),
  })),
  { key: 'eventManagement.sharedEventTypeOwner' },
  { key: 'eventManagement.sharedEntityId' },
  {
    key: 'eventManagement.sharedEventId',
    read: (id) => ({ service: 'event-management', path: `/events/${encodeURIComponent(id)}` }),
  },
  { key: 'eventManagement.otherTenantEntityId' },
  { key: 'eventManagement.subTenantEntityIds' },
];

/** The OAuth scopes the three contracts declare, by service. */
export function contractScopes(): Map<string, ServiceName> {
  const out = new Map<string, ServiceName>();
  for (const s of SERVICES) {
    const doc = yaml.load(readFileSync(join(root, 'contracts', s, 'openapi.yaml'), 'utf8')) as {
      components?: {
        securitySchemes?: Record<string, { flows?: Record<string, { scopes?: Record<string, string> }> }>;
      };
    };
    for (const scheme of Object.values(doc.components?.securitySchemes ?? {}))
      for (const flow of Object.values(scheme.flows ?? {}))
        for (const scope of Object.keys(flow.scopes ?? {})) out.set(scope, s);
  }
  return out;
}

/** The scopes a token names (`scope` claim: a list or space-separated), or undefined when it is not a JWT. */
function tokenScopes(header: string): { scopes: string[]; tenant?: string } | undefined {
  try {
    const claims = decodeJwt(header.replace(/^Bearer\s+/i, ''));
    const raw = claims.scope ?? claims.scp;
    const scopes = Array.isArray(raw)
      ? raw.map(String)
      : typeof raw === 'string'
        ? raw.split(/\s+/).filter(Boolean)
        : [];
    return { scopes, tenant: typeof claims.ten === 'string' ? claims.ten : undefined };
  } catch {
    return undefined;
  }
}

function fixtureValue(fixtures: Record<string, unknown>, key: string): unknown {
  let v: unknown = fixtures;
  for (const part of key.split('.')) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

function present(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/**
 * Which tests need a piece of the configuration: a test needs it when its source (from its
 * name to the next test's), or a helper function of its service that it calls, names it. This
 * reads the suites' source, so it names the rules a missing piece will skip as the tests
 * declare them, without running any test.
 */
export class RequirementIndex {
  private readonly chunks: { test: TestRecord; text: string }[] = [];

  constructor(tests: TestRecord[]) {
    const byFile = new Map<string, TestRecord[]>();
    for (const t of tests) byFile.set(t.file, [...(byFile.get(t.file) ?? []), t]);
    const helpers = new Map<ServiceName, { name: string; closure: string }[]>();
    for (const s of SERVICES) helpers.set(s, withCallees(helperFunctions(s)));
    for (const [file, list] of byFile) {
      const source = readFileSync(join(root, file), 'utf8');
      const all = list.map((t) => ({ t, at: source.indexOf(t.name.split(' > ').pop() ?? t.name) }));
      const located = all.filter((x) => x.at >= 0).sort((a, b) => a.at - b.at);
      const withHelpers = (t: TestRecord, own: string) => {
        // Helpers: a called helper function's body counts as the test's, and so on down the calls.
        let text = own;
        for (const h of helpers.get(t.service) ?? []) if (calls(own, h.name)) text += `\n${h.closure}`;
        return text;
      };
      located.forEach(({ t, at }, i) => {
        const own = source.slice(at, i + 1 < located.length ? located[i + 1].at : source.length);
        this.chunks.push({ test: t, text: withHelpers(t, own) });
      });
      // A test whose title is built at run time (a loop over a table) is not found by its title:
      // the whole file counts as its source, so that what it needs is never missed.
      for (const { t } of all.filter((x) => x.at < 0)) this.chunks.push({ test: t, text: withHelpers(t, source) });
    }
  }

  /** The tests whose source names one of `words` (not as part of a longer name), optionally of one service. */
  testsNaming(words: string[], service?: ServiceName): TestRecord[] {
    const patterns = words.map((w) => {
      const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`${/^\w/.test(w) ? '(?<![\\w.])' : ''}${escaped}${/\w$/.test(w) ? '(?!\\w)' : ''}`);
    });
    return this.chunks
      .filter(({ test, text }) => (!service || test.service === service) && patterns.some((p) => p.test(text)))
      .map((c) => c.test);
  }
}

/** Whether `text` uses a top-level name (calls it, constructs it, reads it). */
function calls(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w.$])${name}(?![\\w$])`).test(text);
}

/** Each helper with the source of every helper it calls, directly or not. */
function withCallees(helpers: { name: string; text: string }[]): { name: string; closure: string }[] {
  return helpers.map((h) => {
    const seen = new Set([h.name]);
    const queue = [h];
    let closure = '';
    for (let cur = queue.shift(); cur; cur = queue.shift()) {
      closure += `\n${cur.text}`;
      for (const g of helpers) {
        if (seen.has(g.name) || !calls(cur.text, g.name)) continue;
        seen.add(g.name);
        queue.push(g);
      }
    }
    return { name: h.name, closure };
  });
}

/**
 * The top-level functions of a service's suite files, by name, with their source: the helper
 * modules' and those a spec file declares beside its tests (each to its closing brace).
 */
function helperFunctions(service: ServiceName): { name: string; text: string }[] {
  const dir = join(root, 'suites', service);
  if (!existsSync(dir)) return [];
  const out: { name: string; text: string }[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts') && !x.endsWith('.test.ts'))) {
    const source = readFileSync(join(dir, f), 'utf8');
    // A top-level declaration ends at its first closing bracket at column 0 (or its line's end,
    // or the next declaration); functions, classes and values are kept (a table of operations
    // whose entries call a helper needs what that helper needs).
    const starts = [
      ...source.matchAll(/^(?:export )?(?:declare )?(?:async )?(function|const|let|interface|type|class|enum) (\w+)/gm),
    ];
    starts.forEach((m, k) => {
      const next = k + 1 < starts.length ? (starts[k + 1].index ?? source.length) : source.length;
      const eol = source.indexOf('\n', m.index);
      // A line of closing brackets only (`}`, `];`, `});`): not a signature's `): Promise<…> {`.
      const closing = /\n[\]})][\]}),;]*[ \t]*(?=\n|$)/g;
      closing.lastIndex = m.index;
      const close = source.slice(m.index, eol).trimEnd().endsWith(';') ? eol : (closing.exec(source)?.index ?? -1);
      const end = close >= 0 && close < next ? close + 2 : next;
      const text = source.slice(m.index, end);
      if (m[1] === 'function' || m[1] === 'const' || m[1] === 'let' || m[1] === 'class') out.push({ name: m[2], text });
    });
  }
  return out;
}

/**
 * The rows of the configuration's principals (a token for each, and its scopes), the sub-tenant
 * the suites act in, the fixtures (where a read exists, that the target holds them) and what the
 * certification's requirement list names beyond them.
 */
export async function configurationRows(config: RunConfig, http: HttpClient): Promise<Row[]> {
  const rows: Row[] = [];
  const scopes = contractScopes();
  const tokens = new TokenProvider(http, config);
  const names: { name: PrincipalName; label: string; words: string[]; service?: ServiceName }[] = [
    { name: 'full', label: config.principals?.full ? 'principals.full' : 'tokenManager', words: [] },
    { name: 'noScopes', label: 'principals.noScopes', words: ["'noScopes'"] },
    { name: 'otherTenant', label: 'principals.otherTenant', words: ["'otherTenant'", 'hasOtherTenant'] },
    { name: 'operator', label: 'principals.operator', words: ["'operator'"] },
    { name: 'throttled', label: 'principals.throttled', words: ["'throttled'"] },
    ...[...scopes].map(([scope, service]) => ({
      name: `without:${scope}` as PrincipalName,
      label: `principals.withoutScope["${scope}"]`,
      words: ['without:', 'withoutScope'],
      service,
    })),
  ];
  let fullTenant: string | undefined;
  for (const n of names) {
    const needle = { words: n.words, service: n.service };
    if (!tokens.has(n.name)) {
      // The throttled principal defaults to the full one.
      if (n.name === 'throttled') {
        rows.push({ check: n.label, status: 'n/a', detail: 'not configured: the 429 probe uses the full principal' });
        continue;
      }
      rows.push({ check: n.label, status: 'missing', detail: 'not configured', needle });
      continue;
    }
    let header: string;
    try {
      header = await tokens.authorization(n.name);
    } catch (e) {
      const why =
        e instanceof PrincipalUnavailable && e.tokenError
          ? `the token endpoint refused the credentials (HTTP ${e.tokenError.status}): wrong client ID or secret?`
          : e instanceof TransportError
            ? `${e.code}: ${e.message}`
            : (e as Error).message;
      rows.push({
        check: n.label,
        status: 'failed',
        detail: `no token: ${why}`,
        needle,
        stopsRun: n.name === 'full' && e instanceof PrincipalUnavailable,
      });
      continue;
    }
    const claims = tokenScopes(header);
    if (!claims) {
      rows.push({
        check: n.label,
        status: 'ready',
        detail: 'token obtained; it is not a JWT, so its scopes are unknown',
      });
      continue;
    }
    const held = claims.scopes.filter((s) => scopes.has(s));
    const shown = claims.scopes.length ? claims.scopes.join(' ') : '(none)';
    let problem: string | undefined;
    if (n.name === 'full') {
      fullTenant = claims.tenant;
      const lacking = [...scopes.keys()].filter((s) => !claims.scopes.includes(s));
      if (lacking.length) problem = `lacks ${lacking.join(' ')}: the tests acting with them will be refused`;
    } else if (n.name === 'noScopes' && held.length) {
      problem = `holds ${held.join(' ')}, so it cannot show a refusal for a missing scope`;
    } else if (n.name.startsWith('without:') && claims.scopes.includes(n.name.slice('without:'.length))) {
      problem = `holds ${n.name.slice('without:'.length)}, the one scope it must lack`;
    } else if (n.name === 'otherTenant' && claims.tenant && fullTenant && claims.tenant === fullTenant) {
      problem = `its token is for tenant ${claims.tenant}, the same as the full principal's`;
    }
    rows.push({
      check: n.label,
      status: problem ? 'failed' : 'ready',
      detail: `token obtained${claims.tenant ? ` for tenant ${claims.tenant}` : ''}; scopes: ${shown}${problem ? `; ${problem}` : ''}`,
      needle: problem ? needle : undefined,
    });
  }

  const fixtures = config.fixtures ?? {};
  const canRead = tokens.has('full');
  for (const f of FIXTURES) {
    const v = fixtureValue(fixtures, f.key) ?? f.default;
    const needle = fixtureNeedle(f.key, config);
    const label = `fixtures.${f.key}`;
    if (!present(v)) {
      rows.push({ check: label, status: 'missing', detail: 'not configured', needle });
      continue;
    }
    if (!f.read || !canRead || (typeof v !== 'string' && typeof v !== 'number')) {
      rows.push({ check: label, status: 'ready', detail: 'configured (no read to check it by)' });
      continue;
    }
    const { service, path } = f.read(String(v));
    // Shared data of another tenant is read with includeShared (event management).
    const query = service === 'event-management' ? { includeShared: 'true' } : undefined;
    try {
      const res = await http.send({
        method: 'GET',
        path: `${SERVICE_INFO[service].basePath}${path}`,
        query,
        headers: { authorization: await tokens.authorization('full') },
      });
      rows.push({
        check: label,
        status: res.status === 200 ? 'ready' : 'failed',
        detail: `GET ${path} answered HTTP ${res.status}${res.status === 200 ? '' : `: the target does not hold ${JSON.stringify(v)}`}`,
        needle: res.status === 200 ? undefined : needle,
      });
    } catch (e) {
      rows.push({ check: label, status: 'failed', detail: `GET ${path}: ${(e as Error).message}`, needle });
    }
  }

  // The sub-tenant the event management suite acts in as a user: the application must be
  // provisioned for it (a token for the full principal in that tenant).
  const subs = Array.isArray(fixtures.subTenantIds)
    ? (fixtures.subTenantIds as unknown[]).map(String)
    : Object.keys((fixtureValue(fixtures, 'eventManagement.subTenantEntityIds') as object | undefined) ?? {});
  if (subs.length && canRead && config.tokenManager && !config.principals?.full) {
    const sub = subs[0];
    const label = Array.isArray(fixtures.subTenantIds)
      ? 'fixtures.subTenantIds'
      : 'fixtures.eventManagement.subTenantEntityIds';
    try {
      await tokens.authorization('full', sub);
      rows.push({ check: label, status: 'ready', detail: `a token for sub-tenant ${sub} was obtained` });
    } catch (e) {
      if (!(e instanceof TokenError) && !(e instanceof PrincipalUnavailable)) throw e;
      rows.push({
        check: label,
        status: 'failed',
        detail: `no token for sub-tenant ${sub}: ${e.message} (the application is not provisioned for it)`,
        needle: { words: ['subTenantUser'], service: 'event-management' },
      });
    }
  }

  // What the certification's requirement list holds beyond the rows above (six user tenants,
  // each channel and address type ID…): a missing one is named too.
  const shown = new Set(rows.map((r) => r.check));
  const notReadyChecks = rows.filter((r) => r.status === 'missing' || r.status === 'failed').map((r) => r.check);
  for (const req of missingRequirements(config, SERVICES)) {
    if (shown.has(req.path) || notReadyChecks.some((c) => req.path.startsWith(`${c}.`))) continue;
    shown.add(req.path);
    rows.push({
      check: req.path,
      status: 'missing',
      detail: `not configured: ${req.what}`,
      needle: { ...fixtureNeedle(req.path.replace(/^fixtures\./, ''), config), service: req.service },
    });
  }
  return rows;
}

/**
 * How the suites' source names a piece of the configuration: a fixture as the suites read it
 * (`fixture(t, 'entityIds')`, `fixtures(t).sharedEventId`, `fixturesOf(t).bounceDomain`,
 * `addressType(t, 'email')`), the user tenants as the number a test asks for (`userTenants(t, 6)`).
 */
function fixtureNeedle(key: string, config: RunConfig): { words: string[] } {
  const parts = key.split('.');
  const last = parts[parts.length - 1];
  // No suite reads these: the token manager suite takes its tenants from tokenManager.userTenants.
  if (parts[0] === 'technicalTokenManager') return { words: [] };
  if (key === 'tokenManager.userTenants') {
    const have = (config.tokenManager?.userTenants ?? []).filter((u) => u !== config.tokenManager?.hostTenant).length;
    return { words: [1, 2, 3, 4, 5, 6].filter((n) => n > have).map((n) => `userTenants(t, ${n})`) };
  }
  if (parts.length === 1) return { words: [last] };
  // A key under another (addressTypes.email) is read by its name in quotes or as a member.
  return { words: [`'${last}'`, `.${last}`] };
}

/** What the pieces not ready leave unjudged, and the tests a run does not start for them. */
export interface Unjudged {
  /** Per row not ready, the rules it leaves unjudged (all their tests need a piece not ready). */
  byRow: { row: Row; rules: string[] }[];
  /** Every rule left unjudged. */
  rules: string[];
  /** The tests a run does not start, by `testKey`, with the first piece they need that is not ready. */
  gates: NonNullable<RunContext['unready']>;
}

/** The rows not ready that some test's source names (the others leave no rule unjudged). */
export function gatingRows(rows: Row[]): Row[] {
  return rows.filter((r) => (r.status === 'missing' || r.status === 'failed') && r.needle?.words.length);
}

/** Whether a row is the configuration of a principal (else a fixture or another piece). */
function isPrincipalRow(row: Row): boolean {
  return row.check.startsWith('principals.') || row.check === 'tokenManager';
}

/**
 * The rules the rows not ready leave unjudged: a test needs a row when its source names the
 * row's needle (RequirementIndex); a rule is unjudged when every test that declares it needs one.
 */
export function unjudgedBy(rows: Row[], tests: TestRecord[]): Unjudged {
  const notReady = gatingRows(rows);
  const index = new RequirementIndex(tests);
  const gates: Unjudged['gates'] = {};
  const gatedBy = new Map<TestRecord, Row>();
  for (const row of notReady) {
    for (const test of index.testsNaming(row.needle!.words, row.needle!.service)) {
      if (gatedBy.has(test)) continue;
      gatedBy.set(test, row);
      gates[testKey(test.service, test.name.split(' > ').pop() ?? test.name)] = {
        code: isPrincipalRow(row) ? 'principal' : 'configuration',
        reason: `${row.check} ${row.status === 'missing' ? 'is not configured' : `is not ready: ${row.detail}`} (as conformance doctor reports)`,
      };
    }
  }
  const byRule = new Map<string, TestRecord[]>();
  for (const t of tests) for (const r of t.rules) byRule.set(r, [...(byRule.get(r) ?? []), t]);
  const rules = [...byRule].filter(([, ts]) => ts.every((t) => gatedBy.has(t))).map(([r]) => r);
  const unjudgedSet = new Set(rules);
  const byRow = notReady.map((row) => ({
    row,
    rules: [
      ...new Set([...gatedBy].filter(([, g]) => g === row).flatMap(([t]) => t.rules.filter((r) => unjudgedSet.has(r)))),
    ].sort(),
  }));
  return { byRow, rules: rules.sort(), gates };
}

/** The conformance tests and the rules they declare, collected without running them. */
export async function collectTests(config: RunConfig): Promise<TestRecord[]> {
  const context: RunContext = {
    config,
    seed: 1,
    runs: 1,
    timeoutMs: 10_000,
    maxBodyBytes: 1024 * 1024,
    rate: 0,
    concurrency: 1,
    runId: 'doctor',
    prefix: 'cfzdoctor',
    ruleGlobs: [],
    profile: 'full',
    services: [...SERVICES],
  };
  const { collectSuites } = await import('../suites/engine/suite-runner.ts');
  return collectSuites(context, SERVICES);
}
