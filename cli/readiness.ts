import { decodeJwt } from 'jose';
import { contractScopes } from '../contracts/contract.ts';
import { SERVICES, SERVICE_INFO, type ServiceName } from '../contracts/services.ts';
import { TransportError, type HttpClient } from '../suites/engine/http-client.ts';
import { fixtureKeys, type RunConfig } from '../suites/engine/run-config.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { blockingNeed, present, valueAt, within, type Blocked, type NotReady } from '../suites/engine/config-needs.ts';
import type { TestRecord } from '../suites/engine/suite-runner.ts';
import { redactText } from '../suites/engine/redact.ts';
import { TokenError } from '../suites/engine/token-error.ts';
import { TokenProvider, tokenRefusal, type PrincipalName } from '../suites/engine/token-provider.ts';
import { PrincipalUnavailable } from '../suites/engine/unjudged.ts';
import { missingRequirements } from '../certification/config-requirements.ts';
import { THROTTLE_RULES } from '../suites/engine/throttle-probe.ts';

// What `doctor` checks of a configuration, and what a run leaves unjudged for each piece not
// ready: `doctor` prints it, `run` computes the same and does not start the tests it names, so
// that a run skips exactly what `doctor` predicted.

export type Status = 'ready' | 'missing' | 'failed' | 'n/a';

/**
 * Characters of a row's detail kept at most. A detail quotes the target (a token's tenant and
 * scopes, an error it answered) and becomes the reason of every rule the row leaves unjudged: a
 * token of megabytes would otherwise be copied into each of them, in every report.
 */
export const DETAIL_LIMIT = 600; // not a contract bound: the length of a doctor row and a skip reason

const BOUNDED = new RegExp(`^[^]{0,${DETAIL_LIMIT}}…\\(\\d+ more characters left out\\)$`);

/**
 * `detail` cut at `DETAIL_LIMIT` characters (once: a detail cut already is kept as it is), saying how many were left out; redacted before it is
 * cut, so that no secret is left cut in half.
 */
export function boundDetail(detail: string): string {
  if (detail.length <= DETAIL_LIMIT || BOUNDED.test(detail)) return detail;
  const text = redactText(detail);
  return text.length <= DETAIL_LIMIT
    ? text
    : `${text.slice(0, DETAIL_LIMIT)}…(${text.length - DETAIL_LIMIT} more characters left out)`;
}

export interface Row {
  check: string;
  status: Status;
  detail: string;
  /** The configuration key a test declares to need this piece by, when it is not `check`. */
  key?: string;
  /** The fully granted principal's credentials are refused: the run stops at its start (exit 3). */
  stopsRun?: boolean;
}

/**
 * Every fixture key of the run configuration (its schema, the one list of them), what the suites read, and for
 * those a read exists for, the GET that shows the target holds it. A key is a promise to use it:
 * `fixture-keys.test.ts` fails on one no test declares it needs, and `doctor` names the configured
 * keys no test needs (`unusedFixtureKeys`).
 */
/** What a run does with a fixture key beyond checking it is set, where it does more. */
interface FixtureUse {
  default?: string;
  read?: (id: string) => { service: ServiceName; path: string };
  /** Checked apart (the sub-tenants: a token of the application in the first one), not by a row of its own. */
  apart?: true;
}

const eventTypeRead = (id: string) => ({
  service: 'event-management' as const,
  path: `/eventTypes/${encodeURIComponent(id)}`,
});

const FIXTURE_USES: Record<string, FixtureUse> = {
  'notification.restrictedRecipientId': {
    read: (id) => ({ service: 'notification', path: `/recipient/${encodeURIComponent(id)}` }),
  },
  // The document's India region: +91 unless the configuration says otherwise.
  'notification.restrictedPhonePrefix': { default: '+91' },
  // The suites fall back on the documented names of the two core types.
  'eventManagement.standardEventTypeId': { default: 'PlatformStandardEvent', read: eventTypeRead },
  'eventManagement.baseEventTypeId': { default: 'BaseEvent', read: eventTypeRead },
  'eventManagement.sharedEventTypeId': { read: eventTypeRead },
  'eventManagement.globalEventTypeId': { read: eventTypeRead },
  'eventManagement.bigEventTypeId': { read: eventTypeRead },
  'eventManagement.limitEventTypeId': { read: eventTypeRead },
  'eventManagement.sharedEventId': {
    read: (id) => ({ service: 'event-management', path: `/events/${encodeURIComponent(id)}` }),
  },
  'eventManagement.subTenantEntityIds': { apart: true },
  subTenantIds: { apart: true },
};

export const FIXTURES: Array<{ key: string } & FixtureUse> = fixtureKeys().map((key) => ({
  key,
  ...FIXTURE_USES[key],
}));

/**
 * The fixture keys the configuration gives (at the grain of `FIXTURES`; a key the format does not
 * have as it stands) that no test of `tests` declares it needs.
 */
export function unusedFixtureKeys(config: RunConfig, tests: readonly TestRecord[]): string[] {
  const fixtures = config.fixtures ?? {};
  const given: string[] = [];
  const walk = (node: unknown, path: string) => {
    const listed = FIXTURES.some((f) => f.key === path);
    const deeper = FIXTURES.some((f) => f.key.startsWith(`${path}.`));
    if (path && (listed || !deeper || !node || typeof node !== 'object' || Array.isArray(node))) {
      if (present(node)) given.push(path);
      return;
    }
    for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(v, path ? `${path}.${k}` : k);
  };
  walk(fixtures, '');
  const needs = tests.flatMap((t) => (t.needs ?? []).flatMap((n) => (typeof n === 'string' ? [n] : [...n])));
  return given
    .map((k) => `fixtures.${k}`)
    .filter((key) => !needs.some((n) => within(n, key) || within(key, n)))
    .sort();
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

/**
 * The rows of the configuration's principals (a token for each, and its scopes), the sub-tenant
 * the suites act in, the fixtures (where a read exists, that the target holds them) and what the
 * certification's requirement list names beyond them.
 */
export async function configurationRows(config: RunConfig, http: HttpClient): Promise<Row[]> {
  const rows: Row[] = [];
  const scopes = contractScopes();
  const tokens = new TokenProvider(http, config);
  const names: { name: PrincipalName; label: string }[] = [
    { name: 'full', label: config.principals?.full ? 'principals.full' : 'tokenManager' },
    { name: 'noScopes', label: 'principals.noScopes' },
    { name: 'otherTenant', label: 'principals.otherTenant' },
    { name: 'operator', label: 'principals.operator' },
    { name: 'throttled', label: 'principals.throttled' },
    ...[...scopes.keys()].map((scope) => ({
      name: `without:${scope}` as PrincipalName,
      label: `principals.withoutScope["${scope}"]`,
    })),
  ];
  /** A principal's row (a token for it, and the scopes it names), and the tenant its token is for. */
  const principalRow = async (
    n: { name: PrincipalName; label: string },
    fullTenant?: string,
  ): Promise<Row & { tenant?: string }> => {
    if (!tokens.has(n.name)) {
      // The throttled principal defaults to the full one.
      if (n.name === 'throttled')
        return {
          check: n.label,
          status: 'n/a',
          detail: `not configured: the ${THROTTLE_RULES.length} 429 rules are judged only if the target throttles the run by chance`,
        };
      return { check: n.label, status: 'missing', detail: 'not configured' };
    }
    let header: string;
    try {
      header = await tokens.authorization(n.name);
    } catch (e) {
      const why =
        e instanceof PrincipalUnavailable && e.tokenError
          ? tokenRefusal(e.tokenError)
          : e instanceof TransportError
            ? `${e.code}: ${e.message}`
            : (e as Error).message;
      return {
        check: n.label,
        status: 'failed',
        detail: `no token: ${why}`,
        stopsRun: n.name === 'full' && e instanceof PrincipalUnavailable,
      };
    }
    const claims = tokenScopes(header);
    if (!claims)
      return { check: n.label, status: 'ready', detail: 'token obtained; it is not a JWT, so its scopes are unknown' };
    const held = claims.scopes.filter((s) => scopes.has(s));
    const shown = claims.scopes.length ? claims.scopes.join(' ') : '(none)';
    let problem: string | undefined;
    if (n.name === 'full') {
      const lacking = [...scopes.keys()].filter((s) => !claims.scopes.includes(s));
      if (lacking.length) problem = `lacks ${lacking.join(' ')}: the tests acting with them will be refused`;
    } else if (n.name === 'noScopes' && held.length) {
      problem = `holds ${held.join(' ')}, so it cannot show a refusal for a missing scope`;
    } else if (n.name.startsWith('without:') && claims.scopes.includes(n.name.slice('without:'.length))) {
      problem = `holds ${n.name.slice('without:'.length)}, the one scope it must lack`;
    } else if (n.name === 'otherTenant' && claims.tenant && fullTenant && claims.tenant === fullTenant) {
      problem = `its token is for tenant ${claims.tenant}, the same as the full principal's`;
    }
    return {
      check: n.label,
      status: problem ? 'failed' : 'ready',
      detail: `token obtained${claims.tenant ? ` for tenant ${claims.tenant}` : ''}; scopes: ${shown}${problem ? `; ${problem}` : ''}`,
      tenant: claims.tenant,
    };
  };

  const fixtures = config.fixtures ?? {};
  const canRead = tokens.has('full');
  /** A fixture's row: configured, and where a read exists, held by the target. */
  const fixtureRow = async (f: (typeof FIXTURES)[number]): Promise<Row> => {
    const v = valueAt(fixtures, f.key) ?? f.default;
    const label = `fixtures.${f.key}`;
    if (!present(v)) return { check: label, status: 'missing', detail: 'not configured' };
    if (!f.read || !canRead || (typeof v !== 'string' && typeof v !== 'number'))
      return { check: label, status: 'ready', detail: 'configured (no read to check it by)' };
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
      return {
        check: label,
        status: res.status === 200 ? 'ready' : 'failed',
        detail: `GET ${path} answered HTTP ${res.status}${res.status === 200 ? '' : `: the target does not hold ${JSON.stringify(v)}`}`,
      };
    } catch (e) {
      return { check: label, status: 'failed', detail: `GET ${path}: ${(e as Error).message}` };
    }
  };

  // The sub-tenant the event management suite acts in as a user: the application must be
  // provisioned for it (a token for the full principal in that tenant).
  const subTenantRows = async (): Promise<Row[]> => {
    const subs = Array.isArray(fixtures.subTenantIds)
      ? (fixtures.subTenantIds as unknown[]).map(String)
      : Object.keys((valueAt(fixtures, 'eventManagement.subTenantEntityIds') as object | undefined) ?? {});
    if (!subs.length || !canRead || !config.tokenManager || config.principals?.full) return [];
    const sub = subs[0];
    const label = Array.isArray(fixtures.subTenantIds)
      ? 'fixtures.subTenantIds'
      : 'fixtures.eventManagement.subTenantEntityIds';
    try {
      await tokens.authorization('full', sub);
      return [{ check: label, status: 'ready', detail: `a token for sub-tenant ${sub} was obtained` }];
    } catch (e) {
      // A token endpoint that hangs or sends without end is a failed row too, never a crash of doctor.
      if (e instanceof TransportError)
        return [{ check: label, status: 'failed', detail: `no token for sub-tenant ${sub}: ${e.code}: ${e.message}` }];
      if (!(e instanceof TokenError) && !(e instanceof PrincipalUnavailable)) throw e;
      return [
        {
          check: label,
          status: 'failed',
          detail: `no token for sub-tenant ${sub}: ${e.message} (the application is not provisioned for it)`,
          key: 'fixtures.subTenantIds',
        },
      ];
    }
  };

  // The user tenants the token manager's rules send (`tokenManager.userTenants`): the application
  // must be provisioned for each, as for the sub-tenant above; one it is not is the configuration's
  // slip, not the target's failure of the rules that send it.
  const userTenantRows = async (): Promise<Row[]> => {
    const tm = config.tokenManager;
    // In the order the tests take them: a test needing n user tenants sends the first n.
    const tenants = (tm?.userTenants ?? []).filter((u) => u !== tm?.hostTenant);
    if (!tm || !tenants.length || config.principals?.full) return [];
    const answers = await Promise.all(
      tenants.map(async (tenant) => {
        try {
          await tokens.authorization('full', tenant);
          return undefined;
        } catch (e) {
          // Refused as not provisioned (4xx): the configuration's slip. Anything else (a 5xx, a
          // timeout) is the target's to answer for, judged by the tests that send it.
          if (e instanceof PrincipalUnavailable && NOT_PROVISIONED.includes(e.tokenError?.status ?? 0))
            return 'refused';
          if (e instanceof TokenError || e instanceof PrincipalUnavailable || e instanceof TransportError)
            return 'unknown';
          throw e;
        }
      }),
    );
    const first = answers.indexOf('refused');
    if (first === -1)
      return [
        {
          check: 'tokenManager.userTenants',
          status: 'ready',
          detail: answers.includes('unknown')
            ? `the token endpoint gave no token for some of the ${tenants.length} user tenants without refusing them: the rules that send them judge it`
            : `a token was obtained for each of the ${tenants.length} user tenants`,
        },
      ];
    const refused = tenants.filter((_, i) => answers[i] === 'refused');
    return [
      {
        check: 'tokenManager.userTenants',
        // The tests needing this many user tenants or more are not started; those needing fewer are.
        key: `tokenManager.userTenants:${first + 1}`,
        status: 'failed',
        detail: `no token for user tenant${refused.length > 1 ? 's' : ''} ${refused.join(', ')} (is the application provisioned for ${refused.length > 1 ? 'them' : 'it'}?)`,
      },
    ];
  };

  // The full principal first (the others are judged against its tenant, and the reads use its
  // token); then every other check at once, as many in flight as the client allows, the rows
  // kept in their order.
  const { tenant: fullTenant, ...full } = await principalRow(names[0]);
  const [others, fixtureRows, subRows, userRows] = await Promise.all([
    Promise.all(names.slice(1).map((n) => principalRow(n, fullTenant))),
    Promise.all(FIXTURES.filter((f) => !f.apart).map(fixtureRow)),
    subTenantRows(),
    full.status === 'ready' ? userTenantRows() : [],
  ]);
  rows.push(full, ...others.map(({ tenant: _t, ...row }) => row), ...fixtureRows, ...subRows, ...userRows);
  for (const row of rows) row.detail = boundDetail(row.detail);

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
    });
  }
  return rows;
}

/** The token endpoint's statuses that refuse a user tenant as not provisioned. */
const NOT_PROVISIONED = [400, 401, 403, 404];

/** What the pieces not ready leave unjudged, and why a run does not start each test it does not start. */
export interface Unjudged {
  /** Per row not ready, the rules it leaves unjudged (all their tests need a piece not ready). */
  byRow: { row: Row; rules: string[] }[];
  /** Every rule left unjudged. */
  rules: string[];
  /** The tests a run does not start, with the first piece they need that is not ready. */
  blocked: Map<TestRecord, Blocked>;
}

/** Whether a row is the configuration of a principal (else a fixture or another piece). */
function isPrincipalRow(row: Row): boolean {
  return row.check.startsWith('principals.') || row.check === 'tokenManager';
}

/**
 * The pieces of the configuration the rows find not ready, by the key a test declares to need
 * them by: what a run hands its tests (`RunContext.unready`). A piece missing from the
 * configuration needs no entry: `blockingNeed` finds that in the configuration itself.
 */
export function notReadyPieces(rows: Row[]): NotReady {
  const out: NotReady = {};
  for (const row of rows) {
    if (row.status !== 'missing' && row.status !== 'failed') continue;
    const key = row.key ?? row.check;
    if (!/^(principals|fixtures|tokenManager)\b/.test(key)) continue;
    out[key] = {
      code: isPrincipalRow(row) ? 'principal' : 'configuration',
      reason:
        row.status === 'missing'
          ? `${row.check} is not configured`
          : `${row.check} is not ready: ${boundDetail(row.detail)}`,
    };
  }
  return out;
}

/**
 * The rules the rows not ready leave unjudged: a test is not started when a piece it declares
 * to need (`RuleTestOptions.needs`) is not ready (`blockingNeed`, the test `ruleTest` makes
 * too); a rule is unjudged when every test that declares it is not started. A piece a test needs
 * that no row names (missing from the configuration) is added to the rows as missing.
 */
export function unjudgedBy(rows: Row[], tests: TestRecord[], config: RunConfig): Unjudged {
  const pieces = notReadyPieces(rows);
  const blocked = new Map<TestRecord, Blocked>();
  for (const test of tests) {
    const b = blockingNeed(test.needs ?? [], pieces, config);
    if (b) blocked.set(test, b);
  }
  const rowOf = (key: string): Row => {
    const found =
      rows.find((r) => (r.key ?? r.check) === key) ??
      rows.find((r) => key.startsWith(`${r.key ?? r.check}:`) && (r.status === 'missing' || r.status === 'failed'));
    if (found) return found;
    const row: Row = { check: key, status: 'missing', detail: 'not configured' };
    rows.push(row);
    return row;
  };
  const byRule = new Map<string, TestRecord[]>();
  for (const t of tests) for (const r of t.rules) byRule.set(r, [...(byRule.get(r) ?? []), t]);
  const rules = [...byRule].filter(([, ts]) => ts.every((t) => blocked.has(t))).map(([r]) => r);
  const unjudgedSet = new Set(rules);
  const rulesOf = new Map<Row, Set<string>>();
  for (const [test, b] of blocked) {
    const row = rowOf(b.key);
    const set = rulesOf.get(row) ?? new Set<string>();
    for (const r of test.rules) if (unjudgedSet.has(r)) set.add(r);
    rulesOf.set(row, set);
  }
  const byRow = rows
    .filter((r) => r.status === 'missing' || r.status === 'failed')
    .map((row) => ({ row, rules: [...(rulesOf.get(row) ?? [])].sort() }));
  return { byRow, rules: rules.sort(), blocked };
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
