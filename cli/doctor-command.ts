import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import yaml from 'js-yaml';
import { SERVICES, SERVICE_INFO, type ServiceName } from '../contracts/services.ts';
import { HttpClient, TransportError, type HttpResponse } from '../suites/engine/http-client.ts';
import { validateRunConfig, type RunConfig } from '../suites/engine/run-config.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';
import type { RunContext } from '../suites/engine/run-context.ts';
import { collectSuites, type TestRecord } from '../suites/engine/suite-runner.ts';
import { TokenError, TokenProvider, type PrincipalName } from '../suites/engine/token-provider.ts';
import { missingRequirements } from '../certification/config-requirements.ts';
import { parseDuration } from './duration.ts';
import { UsageError } from './usage-error.ts';

export interface DoctorOptions {
  config?: string;
  target?: string;
  ca?: string;
  insecure?: boolean;
  timeout?: string;
}

/** Exit codes of `conformance doctor`. */
export const DOCTOR_EXIT = { ready: 0, notReady: 1, usage: 2, unreachable: 3 } as const;

type Status = 'ready' | 'missing' | 'failed' | 'n/a';

interface Row {
  check: string;
  status: Status;
  detail: string;
  /** What the suites look for in a test's source to know it needs this piece. */
  needle?: { words: string[]; service?: ServiceName };
}

/** Largest difference between the target's Date header and this machine's clock that judges nothing wrongly. */
export const MAX_CLOCK_SKEW_S = 10;

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The fixtures the suites read (README, "fixtures"), and for those a read exists for, the GET
 * that shows the target holds it.
 */
const FIXTURES: { key: string; read?: (id: string) => { service: ServiceName; path: string } }[] = [
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
    const helpers = new Map<ServiceName, { name: string; text: string }[]>();
    for (const s of SERVICES) helpers.set(s, helperFunctions(s));
    for (const [file, list] of byFile) {
      const source = readFileSync(join(root, file), 'utf8');
      const located = list
        .map((t) => ({ t, at: source.indexOf(t.name.split(' > ').pop() ?? t.name) }))
        .filter((x) => x.at >= 0)
        .sort((a, b) => a.at - b.at);
      located.forEach(({ t, at }, i) => {
        let text = source.slice(at, i + 1 < located.length ? located[i + 1].at : source.length);
        // One level of helpers: a called helper function's body counts as the test's.
        for (const h of helpers.get(t.service) ?? []) if (text.includes(`${h.name}(`)) text += `\n${h.text}`;
        this.chunks.push({ test: t, text });
      });
    }
  }

  /** The rule IDs of the tests whose source names one of `words` (not as part of a longer name), optionally of one service. */
  rulesNaming(words: string[], service?: ServiceName): string[] {
    const patterns = words.map((w) => {
      const escaped = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`${/^\w/.test(w) ? '(?<![\\w.])' : ''}${escaped}${/\w$/.test(w) ? '(?!\\w)' : ''}`);
    });
    const rules = new Set<string>();
    for (const { test, text } of this.chunks) {
      if (service && test.service !== service) continue;
      if (patterns.some((p) => p.test(text))) for (const r of test.rules) rules.add(r);
    }
    return [...rules].sort();
  }
}

/** The functions of a service's helper modules (its non-spec files), by name, with their source. */
function helperFunctions(service: ServiceName): { name: string; text: string }[] {
  const dir = join(root, 'suites', service);
  if (!existsSync(dir)) return [];
  const out: { name: string; text: string }[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.ts') && !x.endsWith('.spec.ts'))) {
    const source = readFileSync(join(dir, f), 'utf8');
    // Every top-level declaration ends the one before it; only functions are kept.
    const starts = [
      ...source.matchAll(/^(?:export )?(?:declare )?(?:async )?(function|const|let|interface|type|class|enum) (\w+)/gm),
    ];
    starts.forEach((m, k) => {
      const end = k + 1 < starts.length ? (starts[k + 1].index ?? source.length) : source.length;
      const text = source.slice(m.index, end);
      if (m[1] === 'function' || (m[1] === 'const' && /^[^=]*=\s*(?:async\s*)?\(/.test(text)))
        out.push({ name: m[2], text });
    });
  }
  return out;
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

/** `conformance doctor`: checks a configuration against its target without running the suites. */
export async function doctorCommand(opts: DoctorOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const source = loadRunConfig(opts.config);
  if (!source) throw new UsageError(`doctor needs --config FILE (or ${CONFIG_ENV} holding the configuration)`);
  let config: RunConfig = source.config;
  if (opts.target) config = validateRunConfig({ ...config, target: opts.target }, '--target');
  if (opts.ca && !existsSync(opts.ca)) throw new UsageError(`--ca ${opts.ca}: no such file`);
  const timeoutMs =
    parseDuration(opts.timeout, '--timeout', { bare: 'ms', minMs: 100 }) ?? config.options?.timeout ?? 10_000;

  const rows: Row[] = [];
  const http = new HttpClient({
    target: config.target,
    timeoutMs,
    maxBodyBytes: 8 * 1024 * 1024,
    rate: 0,
    concurrency: 4,
    ca: opts.ca,
    insecure: !!opts.insecure,
    max429Retries: 3,
    maxRetryAfterMs: 10_000,
    breakAfter: 3,
  });
  try {
    out.write(`conformance doctor — ${t(config.target)}\n\n`);
    // Reachable: any HTTP answer will do; what it says is for the rules to judge.
    let first: HttpResponse;
    try {
      first = await http.send({ method: 'GET', path: `${SERVICE_INFO['event-management'].basePath}/` });
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      out.write(`${pad('reachable', 34)}failed    ${t(e.code)}: ${t(e.message)}\n`);
      out.write(`\nThe target cannot be reached: nothing else can be checked.\n`);
      return DOCTOR_EXIT.unreachable;
    }
    rows.push({
      check: 'reachable',
      status: 'ready',
      detail: `GET / of event management answered HTTP ${first.status}`,
    });

    const https = config.target.startsWith('https:');
    rows.push({
      check: 'TLS',
      status: https ? 'ready' : 'n/a',
      detail: https
        ? opts.insecure
          ? 'handshake made; the certificate was not verified (--insecure)'
          : `the certificate was verified${opts.ca ? ` against ${opts.ca}` : ''}`
        : 'plain HTTP target: no TLS to check',
    });

    const date = first.headers.date ? Date.parse(first.headers.date) : NaN;
    if (Number.isNaN(date)) {
      rows.push({ check: 'clock skew', status: 'n/a', detail: 'the answer has no Date header to compare with' });
    } else {
      const skew = Math.round((date - Date.now()) / 1000);
      rows.push({
        check: 'clock skew',
        status: Math.abs(skew) <= MAX_CLOCK_SKEW_S ? 'ready' : 'failed',
        detail: `the target's Date header is ${Math.abs(skew)} s ${skew >= 0 ? 'ahead of' : 'behind'} this machine's clock (at most ${MAX_CLOCK_SKEW_S} s judges token times rightly)`,
      });
    }

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
          e instanceof TokenError
            ? e.status === 401 || e.status === 403
              ? `the token endpoint refused the credentials (HTTP ${e.status}): wrong client ID or secret?`
              : e.message
            : e instanceof TransportError
              ? `${e.code}: ${e.message}`
              : (e as Error).message;
        rows.push({ check: n.label, status: 'failed', detail: `no token: ${why}`, needle });
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
      const v = fixtureValue(fixtures, f.key);
      const word = f.key.split('.').pop() ?? f.key;
      const needle = { words: [word] };
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
        needle: { words: [req.path.split('.').pop() ?? req.path], service: req.service },
      });
    }

    const width = Math.max(...rows.map((r) => r.check.length)) + 2;
    out.write(`${pad('check', width)}${pad('status', 10)}detail\n`);
    for (const r of rows) out.write(`${pad(r.check, width)}${pad(r.status, 10)}${t(r.detail)}\n`);

    const notReady = rows.filter((r) => r.status === 'missing' || r.status === 'failed');
    if (!notReady.length) {
      out.write(`\nEverything is ready: no rule will be skipped for want of configuration.\n`);
      return DOCTOR_EXIT.ready;
    }
    const index = new RequirementIndex(await collectTests(config));
    out.write(`\nNot ready (${notReady.length}), and the rules each will leave unjudged:\n`);
    for (const r of notReady) {
      const rules =
        r.check === 'tokenManager' || r.check === 'principals.full'
          ? ['every rule: the run stops at its start (exit 3)']
          : r.needle
            ? index.rulesNaming(r.needle.words, r.needle.service)
            : [];
      out.write(
        `\n  ${r.check} (${r.status}): ${rules.length ? `${rules.length} rule${rules.length === 1 ? '' : 's'}` : 'no rule names it'}\n`,
      );
      for (const id of rules) out.write(`    ${id}\n`);
    }
    return DOCTOR_EXIT.notReady;
  } finally {
    await http.close();
  }
}

/** The conformance tests and the rules they declare, collected without running them. */
async function collectTests(config: RunConfig): Promise<TestRecord[]> {
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
  return collectSuites(context, SERVICES);
}
