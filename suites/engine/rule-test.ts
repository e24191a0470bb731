import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import * as allure from 'allure-js-commons';
import { forTerminal } from '../../reporters/untrusted-text.ts';
import { afterAll, test, type TestContext } from 'vitest';
import type { ServiceName } from '../../contracts/services.ts';
import { SERVICE_INFO } from '../../contracts/services.ts';
import { ConformanceFailure, isConformanceFailure, type FailureDetails } from './failure.ts';
import {
  DEFAULT_MAX_BODY_BYTES,
  ReadOnlyRefusal,
  TransportError,
  exchangeOf,
  type Exchange,
  type HttpRequest,
  type HttpResponse,
} from './http-client.ts';
import { blockingNeed, declares, readyFixtures, within, type ConfigKey, type ConfigNeed } from './config-needs.ts';
import type { TrackedResource } from './ledger.ts';
import { redactText, redactValue } from './redact.ts';
import { stopSignalOf } from './run-stop.ts';
import { STATUS_RANK, type OutcomeStatus } from './outcome-status.ts';
import { checkedExchange, type CheckedExchange } from './checks/response-check.ts';
import { judgedRules, RESPONSE_CHECKS } from './checks/response-checks.ts';
import { assertKnownRules, readingText, ruleSelected } from './rule-index.ts';
import type { RunContext } from './run-context.ts';
import { session, type Session } from './session.ts';
import { hash, inShard } from './test-selection.ts';
import { examplesOf } from '../../generators/index.ts';
import type { PrincipalName } from './token-provider.ts';
import { TokenError } from './token-error.ts';
import {
  PrincipalUnavailable,
  TestSkip,
  TransportFailure,
  Unjudged,
  ConfigurationUnavailable,
  type ReasonCode,
} from './unjudged.ts';

export type { OutcomeStatus };

/** One failed check of a rule, with the request whose answer failed it. */
export interface RuleFailure {
  title: string;
  severity: string;
  expected: string;
  received: string;
  counterexample?: unknown;
  seed?: number;
  path?: string;
  curl?: string;
  /** Why there is no curl: what of the request a command line cannot carry (the replay command sends it). */
  noCurl?: string;
  exchange?: Exchange;
  /** The resource of this run the request names: its curl cannot recreate it once the cleanup deleted it. */
  created?: { kind: string; id: string };
}

/** Most distinct failures kept per rule and test (a loop over many inputs does not flood the report). */
export const MAX_FAILURES_PER_RULE = 10;

/** What one test found about one rule; carried to the reporters in the test's metadata. */
export interface RuleOutcome {
  status: OutcomeStatus;
  /** For `observed`: what was seen. For `skipped`/`not-exercised`: why. */
  detail?: string;
  /** For `skipped`/`not-exercised` by configuration, principal or transport: the stable code of why. */
  reasonCode?: ReasonCode;
  /** How many checks of the rule held in this test; a rule is passed only when at least one did. */
  checks?: number;
  /**
   * A part of the rule this test could not exercise (a missing principal, an unreadable claim):
   * the rule is then never reported passed on the strength of the other parts.
   */
  partial?: boolean;
  /** The first failed check of the rule in this test. */
  failure?: RuleFailure;
  /**
   * Every distinct failed check of the rule in this test, the first included: a rule reports each
   * failure it met, so one (say, of a check that is ours to fix) never hides another.
   */
  failures?: RuleFailure[];
  /** For `warning`: a reading check that did not hold (it never fails the run unless `--strict`). */
  warning?: {
    /** The reading's ID, listed with the rule in the catalog. */
    reading: string;
    /** Our reading, in one sentence (from the catalog). */
    text: string;
    title: string;
    expected: string;
    received: string;
    curl?: string;
    noCurl?: string;
    exchange?: Exchange;
  };
}

export interface RuleTestMeta {
  rules: string[];
  outcomes: Record<string, RuleOutcome>;
  service: ServiceName;
  /** Most requests the test sends (for `--dry-run`). */
  budget: number;
  readOnly: boolean;
  /** The pieces of the configuration the test needs (`RuleTestOptions.needs`). */
  needs?: ConfigNeed[];
}

declare module 'vitest' {
  interface TaskMeta {
    conformance?: RuleTestMeta;
  }
}

export interface SendOptions {
  /** Principal whose token is sent; `null` sends no Authorization header. Default `full`. */
  as?: PrincipalName | null;
  /** User tenant of the token (default: the principal's own). */
  tenant?: string;
}

export interface PropertyOptions {
  /** Runs for this property (default: the run's `--runs`). */
  runs?: number;
  /** Rule a failure is attributed to when the predicate throws something other than a ConformanceFailure. */
  rule: string;
}

/** A target transport failure that says the target is gone rather than that it answered this request badly. */
const DOWN_CODES = new Set(['REFUSED', 'DNS', 'TLS', 'UNRESPONSIVE']);

/** Why a rule of a test that ended at a failed check before reaching any check of it is not judged. */
export const EARLIER_CHECK_FAILED = 'an earlier check of this test failed';

/** Most checks of one property reported with a counterexample of their own (one round of the property each). */
export const PROPERTY_ROUNDS = 3;

/**
 * Where a check was called from: the frames of the suites' own code (the engine left out), so that
 * two calls of one helper from two places of a test are two checks.
 */
function checkSite(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  const frames = stack
    .split('\n')
    .map((l) => /suites\/[^\s()]+:\d+/.exec(l)?.[0])
    .filter((f): f is string => f !== undefined && (!f.startsWith('suites/engine/') || f.includes('.test.ts')));
  return frames.length ? frames.join(' < ') : undefined;
}

/** A failure's check: its rule and the place it was called from. */
function siteKey(f: ConformanceFailure): string {
  return `${f.ruleId} @ ${f.site ?? f.title}`;
}

/** A hard reading check that did not hold: the test ends there without failing its rules. */
class ReadingStop extends Error {}

/**
 * An error of the suite's own code (reading a field of a malformed answer without checking its
 * shape, say): a defect to fix in the suite, reported as a run error, never as the target's failure.
 */
function isCodeError(err: unknown): err is Error {
  return err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError;
}

/** A mistake in a suite (a check of an undeclared rule): reported as a run error, never as the target's failure. */
export class SuiteDefect extends Error {
  override name = 'SuiteDefect';
}

/** The fixtures a run's tests read: those its readiness check found not ready left out. */
const fixturesOfRun = new WeakMap<RunContext, Record<string, unknown>>();

/** The handle a rule test receives: HTTP as a principal, checks, observations and the ledger. */
export class RuleContext {
  readonly exchanges: Exchange[] = [];
  /** Requests this test has sent: their priority for a slot (see `HttpRequest.priority`). */
  private sent = 0;
  /**
   * The run's session as this test sees it: a principal the readiness check found not ready is
   * not there (`tokens.has` says no), and acting as a principal the test did not first ask
   * `has` about is a use of it that the test must declare (`need`).
   */
  readonly session: Session;
  private softFailures: ConformanceFailure[] = [];
  /** The rules the test declares (the response checks add those they judge to `meta.rules`). */
  private readonly declared: ReadonlySet<string>;
  /** Failures met while a property runs (shrinking meets many): recorded once it has ended. */
  private propertyFailures?: ConformanceFailure[];

  constructor(
    session: Session,
    readonly service: ServiceName,
    readonly meta: RuleTestMeta,
    private readonly scope: string,
    private readonly vitest: TestContext,
  ) {
    this.session = this.viewOf(session);
    this.declared = new Set(meta.rules);
  }

  private viewOf(s: Session): Session {
    // A context built without a run (the engine's own unit tests) has no session to view.
    if (!s.tokens || !s.context) return s;
    const unready = Object.keys(s.context.unready ?? {});
    const checked = new Set<PrincipalName>();
    const tokens = new Proxy(s.tokens, {
      get: (target, prop) => {
        if (prop === 'has')
          return (name: PrincipalName) => {
            const key = target.configKey(name);
            const ok = target.has(name) && (name === 'full' || !unready.some((k) => within(key, k)));
            if (ok) checked.add(name);
            return ok;
          };
        if (prop === 'authorization')
          return (name: PrincipalName, tenant?: string) => {
            // A principal asked about first is used where it is there; one used outright is needed.
            if (name !== 'full' && !checked.has(name)) this.need(target.configKey(name) as ConfigKey);
            return target.authorization(name, tenant);
          };
        const v: unknown = Reflect.get(target, prop, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    return new Proxy(s, { get: (target, prop) => (prop === 'tokens' ? tokens : Reflect.get(target, prop, target)) });
  }

  get prefix(): string {
    return this.session.context.prefix;
  }

  /** The configured fixtures, without those the run's readiness check found not ready. */
  get fixtures(): Record<string, unknown> {
    const context = this.session.context;
    let f = fixturesOfRun.get(context);
    if (!f) {
      f = readyFixtures(context.config, context.unready);
      fixturesOfRun.set(context, f);
    }
    return f;
  }

  /**
   * Says the test uses a piece of the configuration it cannot do without. The test must declare
   * it (`RuleTestOptions.needs`): readiness decides from the declarations alone which tests a run
   * does not start, so an undeclared use is a suite defect (or, while
   * `CONFORMANCE_RECORD_NEEDS` names a file, a line of it).
   */
  need(key: ConfigKey): void {
    if (declares(this.meta.needs ?? [], key)) return;
    const record = process.env.CONFORMANCE_RECORD_NEEDS;
    if (record) {
      appendFileSync(record, `${JSON.stringify({ test: testKey(this.service, this.vitest.task.name), key })}\n`);
      return;
    }
    throw new SuiteDefect(
      `suite defect: test "${this.vitest.task.name}" uses ${key} but does not declare it in its needs`,
    );
  }

  /** The last request sent, with its response. */
  get lastExchange(): Exchange | undefined {
    return this.exchanges[this.exchanges.length - 1];
  }

  /** Sends a request to this test's service; `req.path` is relative to the service's base path. */
  async send(req: HttpRequest, opts: SendOptions = {}): Promise<HttpResponse> {
    return this.sendTo(this.service, req, opts);
  }

  /** Sends a request to any service. */
  async sendTo(service: ServiceName, req: HttpRequest, opts: SendOptions = {}): Promise<HttpResponse> {
    const headers = { ...(req.headers ?? {}) };
    const as = opts.as === undefined ? 'full' : opts.as;
    if (as !== null && headers.authorization === undefined && headers.Authorization === undefined) {
      headers.authorization = await this.session.tokens.authorization(as, opts.tenant);
    }
    const path = `${SERVICE_INFO[service].basePath}${req.path}`;
    let sent: Exchange | undefined;
    const res = await this.session.http.send({ ...req, path, headers, priority: this.sent++ }, (e) => {
      e.tag = { test: this.vitest.task.name, rules: this.meta.rules };
      sent = e;
      this.exchanges.push(e);
      if (this.exchanges.length > 20) this.exchanges.shift(); // not a contract bound: exchanges kept for a failure
    });
    if (service === this.service) this.judgeEveryResponse(checkedExchange(service, req, res), res, sent);
    return res;
  }

  /**
   * Runs every response check of the registry on an answer this test received, and records what
   * each found on its rules, whether the test declares them or not: a rule judged so passes when
   * its check held on an answer and fails, with that answer's exchange, when it did not. The test
   * goes on either way (it fails at its end); rules the run's `--rule` does not select are left.
   */
  private judgeEveryResponse(x: CheckedExchange, res: HttpResponse, exchange: Exchange | undefined): void {
    for (const check of RESPONSE_CHECKS)
      for (const f of check.check(x)) {
        if (!ruleSelected(f.rule, this.session.context.ruleGlobs)) continue;
        if (!this.meta.rules.includes(f.rule)) this.meta.rules.push(f.rule);
        this.verify(f.rule, f.ok, {
          title: f.title,
          severity: check.severity,
          expected: f.expected,
          received: f.received,
          response: res,
          exchange,
          ...(f.reading ? { reading: f.reading } : {}),
        });
      }
  }

  private record(ruleId: string, outcome: RuleOutcome): void {
    if (!this.meta.rules.includes(ruleId)) {
      throw new SuiteDefect(`suite defect: test "${this.vitest.task.name}" checks ${ruleId} but does not declare it`);
    }
    const prev = this.meta.outcomes[ruleId];
    if (outcome.status === 'passed') outcome = { ...outcome, checks: (prev?.checks ?? 0) + 1 };
    // A part left unexercised keeps the rule from passing; further checks that hold only count.
    if (prev?.partial && outcome.status !== 'failed' && outcome.status !== 'observed' && outcome.status !== 'warning') {
      if (outcome.status === 'passed') prev.checks = outcome.checks;
      return;
    }
    if (outcome.status === 'failed' && prev?.status === 'failed') {
      // Every distinct failure is kept, the first stays first: none hides another.
      const all = prev.failures ?? (prev.failure ? [prev.failure] : []);
      const f = outcome.failure;
      if (f && all.length < MAX_FAILURES_PER_RULE && !all.some((x) => sameFailure(x, f))) all.push(f);
      prev.failures = all;
      return;
    }
    if (outcome.status === 'failed' && prev?.status === 'warning') {
      // A document failure wins over a reading's warning; the warning stays with it as evidence.
      outcome = { ...outcome, warning: prev.warning };
    }
    if (!prev || STATUS_RANK[outcome.status] >= STATUS_RANK[prev.status]) this.meta.outcomes[ruleId] = outcome;
  }

  /**
   * The exchange a failure shows: the one given, else the one that produced the judged response,
   * else the latest exchange whose status and body the received text quotes (a check on an earlier
   * answer than the test's last request must not show that last request), else the last one.
   */
  private evidence(d: FailureDetails): Exchange | undefined {
    if (d.exchange) return d.exchange;
    const own = exchangeOf(d.response);
    if (own) return own;
    const quoted = (e: Exchange) =>
      !!e.response &&
      d.received.includes(`HTTP ${e.response.status}`) &&
      (e.response.body.trim() === '' || d.received.includes(e.response.body.slice(0, 60)));
    for (let i = this.exchanges.length - 1; i >= 0; i--) if (quoted(this.exchanges[i])) return this.exchanges[i];
    return this.lastExchange;
  }

  private failure(ruleId: string, d: FailureDetails): ConformanceFailure {
    // Received and Expected may be JSON.stringify of nothing (undefined), whatever their type says.
    d = { ...d, expected: String(d.expected), received: String(d.received) };
    const f = new ConformanceFailure(ruleId, { ...d, exchange: this.evidence(d) });
    f.site = checkSite();
    return f;
  }

  /**
   * Asserts a rule; a false condition ends the test with a ConformanceFailure. With `d.reading`
   * (the ID of a reading the catalog lists with the rule) the check rests on our reading: a false
   * condition records a warning and ends the test without failing it.
   */
  check(ruleId: string, ok: boolean, d: FailureDetails): void {
    const stop = this.judged(ruleId, ok, d);
    if (stop) throw stop;
  }

  /** Asserts a rule without ending the test; the test fails at its end if any such check failed. */
  verify(ruleId: string, ok: boolean, d: FailureDetails): boolean {
    const stop = this.judged(ruleId, ok, d);
    if (stop instanceof ConformanceFailure) this.softFailures.push(stop);
    return !stop;
  }

  /** Records a check: nothing to throw when it held, else the failure (or, on a reading, the stop) that ends the test. */
  private judged(ruleId: string, ok: boolean, d: FailureDetails): ConformanceFailure | ReadingStop | undefined {
    if (ok) {
      this.record(ruleId, { status: 'passed' });
      return undefined;
    }
    d = this.serverErrorIsNoReading(d);
    if (d.reading !== undefined) {
      this.recordWarning(ruleId, d.reading, d);
      return new ReadingStop(`${ruleId}: reading ${d.reading} did not hold`);
    }
    const f = this.failure(ruleId, d);
    this.recordFailure(f);
    return f;
  }

  /**
   * A check that rests on our reading of a silent, ambiguous or contradictory sentence (the reading
   * `readingId` listed with the rule in the catalog): when it does not hold the rule gets `warning`
   * (a failure only with `--strict`) and the test goes on. Same arguments as verify(), one more in front.
   */
  reading(readingId: string, ruleId: string, ok: boolean, d: FailureDetails): boolean {
    return this.verify(ruleId, ok, { ...d, reading: readingId });
  }

  /**
   * A 5xx answer is never a reading: no sentence lets a deployment fail on valid or documented
   * input, so a reading check that met one fails its rule like a document check (the reading named).
   */
  private serverErrorIsNoReading(d: FailureDetails): FailureDetails {
    if (d.reading === undefined) return d;
    const status =
      d.response?.status ?? d.exchange?.response?.status ?? Number(/\bHTTP (5\d\d)\b/.exec(d.received)?.[1]);
    if (!(status >= 500 && status <= 599)) return d;
    const { reading, ...rest } = d;
    return { ...rest, title: `HTTP ${status} where reading ${reading} expected an answer: ${d.title}` };
  }

  private recordWarning(ruleId: string, readingId: string, d: FailureDetails): void {
    const text = readingText(ruleId, readingId);
    if (text === undefined) {
      throw new SuiteDefect(
        `suite defect: test "${this.vitest.task.name}" names reading ${readingId} that the catalog does not list for ${ruleId}`,
      );
    }
    const exchange = this.evidence(d);
    this.record(ruleId, {
      status: 'warning',
      warning: {
        reading: readingId,
        text,
        title: redactText(d.title),
        expected: redactText(d.expected),
        received: redactText(d.received),
        curl: exchange?.curl,
        noCurl: exchange?.noCurl,
        exchange: exchange ? redactValue(exchange) : undefined,
      },
    });
  }

  /** Whether this test declares a rule (helpers shared by tests check only what the test declares). */
  declares(ruleId: string): boolean {
    return this.declared.has(ruleId);
  }

  /** Records what the target does for a rule the document leaves open (never fails). */
  observe(ruleId: string, what: string): void {
    this.record(ruleId, { status: 'observed', detail: redactText(what) });
  }

  /**
   * Records that a part of a rule was not exercised (an optional principal or fixture is missing,
   * the answer gives nothing to judge that part by): whatever else held, this test does not pass
   * the rule; it reports it skipped with the reason. A failure still wins.
   */
  notExercised(ruleId: string, reason: string): void {
    if (!this.meta.rules.includes(ruleId)) {
      throw new SuiteDefect(`suite defect: test "${this.vitest.task.name}" checks ${ruleId} but does not declare it`);
    }
    const prev = this.meta.outcomes[ruleId];
    if (prev?.status === 'failed' || prev?.status === 'observed' || prev?.status === 'warning') return;
    const detail = redactText(`not all of the rule was exercised: ${reason}`);
    this.meta.outcomes[ruleId] = { status: 'skipped', detail, partial: true, checks: prev?.checks };
  }

  /**
   * Ends the test, marking its rules skipped with a reason. Checks that held before the skip do
   * not make a rule passed: the test did not reach the rest of its checks.
   */
  skip(reason: string): never {
    throw this.unjudged(new TestSkip(reason));
  }

  /** Ends the test because a fixture (or other piece of the configuration) `key` is missing or wrong. */
  needsConfiguration(key: string, reason: string): never {
    this.need(key as ConfigKey);
    throw this.unjudged(new ConfigurationUnavailable(key, reason));
  }

  /** Ends the test because the principal configured under `key` is missing or cannot get a token. */
  needsPrincipal(key: string, reason: string): never {
    this.need(key as ConfigKey);
    throw this.unjudged(new PrincipalUnavailable(key, reason));
  }

  /**
   * Marks the test's rules as `e` says (skipped or not exercised, with its reason and code) and
   * returns it to be thrown. A rule already failed keeps its failure; checks that held before do
   * not make a rule passed: the test did not reach the rest of its checks.
   */
  unjudged(e: Unjudged): Unjudged {
    const detail = redactText(e.message);
    for (const id of this.meta.rules) {
      const prev = this.meta.outcomes[id];
      // What a response check judged on the answers the test did receive stands.
      if (!this.declared.has(id)) continue;
      if (prev?.status === 'failed' || prev?.status === 'warning' || prev?.status === 'observed') continue;
      this.meta.outcomes[id] = {
        status: e.status,
        detail,
        reasonCode: e.code,
        checks: prev?.checks,
        partial: prev?.partial,
      };
    }
    return e;
  }

  /** Whether `err` is a request the run did not send because it is stopping (a signal, --max-time). */
  runStopped(err: unknown): err is TransportError {
    const runId = this.session.context.runId;
    return err instanceof TransportError && err.code === 'ABORTED' && !!runId && stopSignalOf(runId).aborted;
  }

  /**
   * What a transport error of the target means: the target is gone (refused, or a probe after a
   * reset or timeout finds it not answering): a TransportFailure; an answer larger than a
   * `--max-body` the user set below the default: the run's own bound, a skip naming it; else
   * undefined, and the error is the target's answer to that request, judged as such (an answer
   * beyond the default 8 MiB, or one without end, among them).
   */
  async targetGone(err: unknown): Promise<Unjudged | undefined> {
    if (!(err instanceof TransportError)) return undefined;
    if (DOWN_CODES.has(err.code)) return new TransportFailure(err);
    if (
      err.code === 'BODY_TOO_LARGE' &&
      (this.session.context?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES) < DEFAULT_MAX_BODY_BYTES
    )
      return new ConfigurationUnavailable(
        '--max-body',
        `an answer was larger than the run takes (${err.message}); the default --max-body judges it`,
      );
    if (err.code !== 'CONNECTION' && err.code !== 'TIMEOUT') return undefined;
    try {
      await this.session.http.send({ method: 'GET', path: `${SERVICE_INFO[this.service].basePath}/` });
      return undefined;
    } catch (probe) {
      return probe instanceof TransportError ? new TransportFailure(err) : undefined;
    }
  }

  /** Records a created resource; it is deleted after the test unless the returned function marks it deleted. */
  track(resource: Omit<TrackedResource, 'service'> & { service?: string }): () => void {
    return this.session.ledger.track(this.scope, { service: this.service, ...resource });
  }

  /**
   * Runs a fast-check property against the target with the run's seed; the shrunk
   * counterexample, seed and path go into the failure. A run fails on its first failed check, soft
   * ones (`verify`) included; the lists an arbitrary always tries (`examplesOf`) run first. Once a
   * check has failed and shrunk, the property runs again without it, so that each check of a rule
   * that fails reports its own counterexample (up to `PROPERTY_ROUNDS` checks).
   */
  async property<T>(
    arb: fc.Arbitrary<T>,
    predicate: (value: T) => Promise<void>,
    opts: PropertyOptions,
  ): Promise<void> {
    const replay = this.session.context.replay;
    const replaying = replay && this.meta.rules.includes(replay.rule) && replay.path !== undefined;
    const seed = replaying ? replay.seed : (this.session.context.seed ^ hash(this.vitest.task.name)) | 0;
    const examples = examplesOf(arb);
    const outer = this.propertyFailures;
    const met: ConformanceFailure[] = [];
    /** The checks (by call site) already reported: later rounds take their failures as passes. */
    const reported = new Set<string>();
    const bases: ConformanceFailure[] = [];
    // The first run that cannot be judged (configuration, principal, target gone, a skip of the
    // test's own such as a filter the deployment's dialect cannot say) ends the property: later
    // runs and shrinking pass at once instead of asking the target again.
    let unjudged: Unjudged | SuiteDefect | TransportError | undefined;
    // What the runs met besides the shrunk failures (soft checks, other rules, other checks of the
    // rule) is kept: every distinct failure of each rule (record() drops repeats and caps the count).
    const flush = () => {
      for (const f of met) if (!bases.some((b) => b.ruleId === f.ruleId && b.site === f.site)) this.recordFailure(f);
    };
    for (let round = 0; round < (replaying ? 1 : PROPERTY_ROUNDS); round++) {
      this.propertyFailures = met;
      const result = await fc
        .check(
          fc.asyncProperty(arb, async (v) => {
            if (unjudged) return;
            const mark = this.softFailures.length;
            try {
              await predicate(v);
            } catch (e) {
              const known = isConformanceFailure(e) && reported.has(siteKey(e));
              if (!known) {
                this.softFailures.splice(mark);
                // A suite defect is no counterexample either: it ends the property and the test.
                // The run stopping (a request not sent) is no counterexample: it ends the test unjudged.
                unjudged =
                  e instanceof Unjudged || e instanceof SuiteDefect || this.runStopped(e)
                    ? e
                    : await this.targetGone(e);
                if (!unjudged) throw e;
                return;
              }
            }
            // A soft check that failed fails the run too, so that it is shrunk like any other.
            const soft = this.softFailures.splice(mark).filter((f) => !reported.has(siteKey(f)));
            if (soft.length) throw soft[0];
          }),
          {
            seed,
            path: replaying ? replay.path : undefined,
            numRuns: examples.length + (opts.runs ?? generatedRuns(this.session.context.runs, examples.length)),
            examples: examples.map((e) => [e] as [T]),
            // Shrinking stops after a bounded time: a failure is reported, shrunk as far as it got.
            interruptAfterTimeLimit: 60_000,
            markInterruptAsFailure: false,
          },
        )
        .finally(() => {
          this.propertyFailures = outer;
        });
      // Configuration, principals, a target gone and a skip are not counterexamples.
      if (unjudged) {
        flush();
        throw unjudged;
      }
      if (!result.failed) break;
      const cause = result.errorInstance;
      // A skip inside a property (a piece of configuration it needs) ends the test as skipped.
      if (cause instanceof ReadOnlyRefusal || cause instanceof Unjudged) throw cause;
      if (isCodeError(cause)) throw cause;
      const base = isConformanceFailure(cause)
        ? cause
        : this.failure(opts.rule, {
            title: 'property raised an error',
            expected: 'the property holds',
            received: redactText(String((cause as Error)?.message ?? cause)),
          });
      base.counterexample = redactValue(reportable(result.counterexample?.[0]));
      base.seed = result.seed;
      base.path = result.counterexamplePath ?? undefined;
      bases.push(base);
      if (!isConformanceFailure(cause) || base.site === undefined) break;
      reported.add(siteKey(base));
    }
    for (const b of bases) this.recordFailure(b);
    flush();
    if (bases.length) throw bases[0];
  }

  private recordFailure(f: ConformanceFailure): void {
    if (this.propertyFailures) {
      this.propertyFailures.push(f);
      return;
    }
    const outcome: RuleOutcome = {
      status: 'failed',
      failure: {
        title: f.title,
        severity: f.severity,
        expected: redactText(f.expected),
        received: redactText(f.received),
        counterexample: f.counterexample === undefined ? undefined : redactValue(f.counterexample),
        seed: f.seed,
        path: f.path,
        curl: f.exchange?.curl,
        noCurl: f.exchange?.noCurl,
        exchange: f.exchange ? redactValue(f.exchange) : undefined,
        created: this.createdIn(f.exchange),
      },
    };
    this.record(f.ruleId, outcome);
  }

  /** The resource this run created that an exchange's request names anywhere, if any (the ledger knows them). */
  private createdIn(exchange: Exchange | undefined): RuleFailure['created'] {
    // A context built without a run (the engine's own unit tests) has no ledger.
    const ledger = this.session.ledger as Session['ledger'] | undefined;
    const found = exchange && ledger ? ledger.createdIn(exchange.request) : undefined;
    return found && { kind: found.kind, id: found.id };
  }

  /** Throws the soft failures collected by verify(). */
  finish(): void {
    if (this.softFailures.length) throw this.softFailures[0];
  }

  /** Attributes an error that is not a ConformanceFailure to the test's first unresolved rule. */
  attributeError(err: unknown): void {
    const target =
      this.meta.rules.find((r) => !this.meta.outcomes[r] || this.meta.outcomes[r].status === 'not-exercised') ??
      this.meta.rules[0];
    const exchange = err instanceof TransportError || err instanceof TokenError ? err.exchange : this.lastExchange;
    const kind =
      err instanceof TransportError
        ? `transport error (${err.code})`
        : err instanceof TokenError
          ? 'token error'
          : 'unexpected error';
    this.meta.outcomes[target] = {
      status: 'failed',
      failure: {
        title: kind,
        severity: 'high',
        expected: 'a well-formed answer that the check can judge',
        received: redactText((err as Error)?.message ?? String(err)),
        curl: exchange?.curl,
        noCurl: exchange?.noCurl,
        exchange: exchange ? redactValue(exchange) : undefined,
      },
    };
  }
}

/**
 * Generated runs of a property on top of the examples it always tries: the run's `--runs`, but a
 * fifth of it (at least 2) where the examples already place every kind of bad item first, in the
 * middle and last of a list (`listWithBadItems`): the generated lists then add other places and
 * lengths, and a failure's shrinking, without doubling the run's requests.
 */
function generatedRuns(runs: number, examples: number): number {
  // not a contract bound: the share of property runs beside examples
  return examples ? Math.max(2, Math.round(runs / 5)) : runs;
}

/** Allure's severity for each of ours: Allure has one level more (trivial), which no check uses. */
const ALLURE_SEVERITY: Record<string, allure.Severity> = {
  critical: allure.Severity.BLOCKER,
  high: allure.Severity.CRITICAL,
  medium: allure.Severity.NORMAL,
  low: allure.Severity.MINOR,
};

/** The Allure severity of a failed test: that of its most severe failure (undefined when none failed). */
export function allureSeverity(severities: ReadonlyArray<string | undefined>): allure.Severity | undefined {
  return Object.keys(ALLURE_SEVERITY)
    .filter((s) => severities.includes(s))
    .map((s) => ALLURE_SEVERITY[s])[0];
}

/** Puts each warning of a test into its Allure result, with the reading and what the deployment did. */
async function allureWarnings(allureDir: string | undefined, meta: RuleTestMeta): Promise<void> {
  if (!allureDir) return;
  for (const [id, o] of Object.entries(meta.outcomes)) {
    if (o.status !== 'warning' || !o.warning) continue;
    const w = o.warning;
    await allure.label('conformance-status', 'warning');
    const text = `${id} (warning: reading ${w.reading})\nOur reading: ${w.text}\nExpected: ${w.expected}\nReceived: ${w.received}${w.curl ? `\n\nReproduce with:\n${w.curl}` : ''}${w.noCurl ? `\n\nNo curl: ${w.noCurl}` : ''}`;
    await allure.attachment(`warning ${id}`, forTerminal(text), 'text/plain');
  }
}

/** Whether two failures are the same finding (same check, same expectation). */
function sameFailure(a: RuleFailure, b: RuleFailure): boolean {
  return a.title === b.title && a.expected === b.expected;
}

/** Plain data (JSON-like) is kept as it is; anything else (model commands, class instances) as fast-check prints it. */
function reportable(value: unknown): unknown {
  const plain = (v: unknown, depth = 0): boolean => {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) return true;
    if (depth > 20 || typeof v !== 'object') return false; // not a contract bound: how deep a value is checked
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return false;
    return Object.values(v).every((x) => plain(x, depth + 1));
  };
  return plain(value) ? value : fc.stringify(value);
}

export interface RuleTestOptions {
  timeout?: number;
  /** The test changes nothing on the target (it runs in the read-only profile). */
  readOnly?: boolean;
  /** Most requests the test sends; a property test counts per run (`budgetPerRun`). Default 10. */
  budget?: number;
  /** Requests per property run; the budget becomes `budget + budgetPerRun × runs`. */
  budgetPerRun?: number;
  /**
   * The pieces of the configuration the test cannot judge its rules without (a list inside the
   * list: any one of them). A run does not start the test when one is not ready, and `doctor`
   * predicts that from these alone; a use of a piece not declared is a suite defect (`need`).
   */
  needs?: readonly ConfigNeed[];
}

/** What one row of a table of tests declares: its rules, its name and its options. */
export interface RowDeclaration {
  rules: readonly string[];
  name: string;
  options?: RuleTestOptions;
}

/**
 * One test per row of a table (the per-resource and per-field repeats of one rule shape): each row
 * declares its own rules and name, and the test body receives the row.
 */
export function ruleTestEach<Row>(
  service: ServiceName,
  rows: readonly Row[],
  declare: (row: Row) => RowDeclaration,
  fn: (t: RuleContext, row: Row) => Promise<void>,
): void {
  for (const row of rows) {
    const d = declare(row);
    ruleTest(service, d.rules, d.name, (t) => fn(t, row), d.options);
  }
}

/** A service's test wrapper: `ruleTest` and `ruleTestEach` with the service and its default options bound. */
export interface ServiceTest {
  (rules: readonly string[], name: string, fn: (t: RuleContext) => Promise<void>, options?: RuleTestOptions): void;
  each<Row>(
    rows: readonly Row[],
    declare: (row: Row) => RowDeclaration,
    fn: (t: RuleContext, row: Row) => Promise<void>,
  ): void;
}

/** Declares the tests of one service; rule IDs are written in full, `defaults` under each test's options. */
export function serviceTest(service: ServiceName, defaults: RuleTestOptions = {}): ServiceTest {
  const declareTest: ServiceTest = (rules, name, fn, options = {}) =>
    ruleTest(service, rules, name, fn, { ...defaults, ...options });
  declareTest.each = (rows, declare, fn) =>
    ruleTestEach(
      service,
      rows,
      (row) => {
        const d = declare(row);
        return { ...d, options: { ...defaults, ...d.options } };
      },
      fn,
    );
  return declareTest;
}

let scopeCounter = 0;

/**
 * Declares a conformance test and the rules it covers. Unknown rule IDs fail at collection;
 * the outcome of each rule is recorded in the test's metadata for the reporters; whatever the
 * test created is deleted after it, also when it failed.
 */
export function ruleTest(
  service: ServiceName,
  rules: readonly string[],
  name: string,
  fn: (t: RuleContext) => Promise<void>,
  options: RuleTestOptions = {},
): void {
  assertKnownRules(rules, `ruleTest "${name}"`);
  const wrong = rules.filter((r) => !r.startsWith(`${service}/`));
  if (wrong.length)
    throw new Error(`ruleTest "${name}" of ${service} names rules of another service: ${wrong.join(', ')}`);
  const declared: RuleTestMeta = {
    rules: [...rules],
    outcomes: {},
    service,
    budget: options.budget ?? 10,
    readOnly: !!options.readOnly,
    needs: [...(options.needs ?? [])],
  };
  test(
    name,
    {
      timeout: options.timeout ?? 60_000,
      meta: { conformance: declared, budgetPerRun: options.budgetPerRun ?? 0 } as never,
    },
    async (vitest) => {
      const s = session();
      const meta: RuleTestMeta = { ...declared, rules: [...declared.rules], outcomes: {} };
      if (options.budgetPerRun) meta.budget += options.budgetPerRun * s.context.runs;
      vitest.task.meta.conformance = meta;
      /** Every rule of the test not failed gets `status`, and the test is skipped (with `note`). */
      const leave = (status: OutcomeStatus, detail: string, reasonCode: ReasonCode, note?: string): void => {
        for (const r of rules)
          if (meta.outcomes[r]?.status !== 'failed') meta.outcomes[r] = { status, detail, reasonCode };
        vitest.skip(note);
      };
      /** The checks after this point did not run: what passed before it is only part of the test. */
      const stoppedAt = (detail: string, reasonCode: ReasonCode): void => {
        for (const r of rules) {
          const o = meta.outcomes[r];
          if (!o || o.status === 'passed' || o.status === 'not-exercised')
            meta.outcomes[r] = { status: 'skipped', detail, reasonCode, checks: o?.checks, partial: true };
        }
      };
      const unchecked = (detail: string): void => {
        for (const r of rules) meta.outcomes[r] ??= { status: 'not-exercised', detail, reasonCode: 'no-check' };
      };
      if (!judgedRules(service, rules).some((r) => ruleSelected(r, s.context.ruleGlobs)))
        return leave('skipped', 'not selected by --rule', 'not-selected');
      if (s.context.shard && !inShard(s.context, service, name)) {
        const { index, total } = s.context.shard;
        return leave('not-exercised', `run by another shard than ${index}/${total}`, 'other-shard');
      }
      if (s.context.profile === 'read-only' && !options.readOnly)
        return leave('skipped', 'changes the target; skipped by --profile read-only', 'read-only');
      if (s.http.unresponsiveSince !== undefined) {
        const reason = unresponsiveReason(s);
        return leave('not-exercised', reason, 'target-unresponsive', reason);
      }
      // A piece the test needs is missing, or `doctor`'s check found it not ready: the test is not
      // started, so that what a run skips is what `doctor` predicts (cli/readiness.ts).
      const gate = blockingNeed(declared.needs ?? [], s.context.unready ?? {}, s.context.config);
      if (gate) {
        const also = gate.others?.length ? `; not ready either: ${gate.others.join(', ')}` : '';
        const reason = `${gate.reason}${also} (as conformance doctor reports)`;
        return leave('skipped', reason, gate.code, reason);
      }
      const scope = `t${++scopeCounter}`;
      const t = new RuleContext(s, service, meta, scope, vitest);
      if (s.context.allureDir) {
        await allure.epic(service);
        await allure.feature(rules[0].split('/')[1]);
        for (const r of rules) await allure.label('rule', r);
      }
      // Whether the test body ran to its end (a failed check ends it before the checks after it).
      let ended = false;
      try {
        await fn(t);
        ended = true;
        t.finish();
        unchecked('the test ran no check of this rule');
        await allureWarnings(s.context.allureDir, meta);
      } catch (err) {
        const unresponsive =
          (err instanceof TransportError && err.code === 'UNRESPONSIVE') ||
          (err instanceof TransportFailure && err.cause.code === 'UNRESPONSIVE');
        if (unresponsive) {
          // A request was not sent: the rules this test had not failed were not judged.
          const reason = unresponsiveReason(s);
          return leave('not-exercised', reason, 'target-unresponsive', reason);
        }
        if (t.runStopped(err)) {
          // The run is stopping (a signal, --max-time): what this test had not judged stays unjudged.
          const reason = 'the run stopped (a signal or --max-time) before this test judged it';
          return leave('not-exercised', reason, 'interrupted', reason);
        }
        // Not the target's conformance: configuration, principals, a target gone, nothing to judge.
        const unjudged = err instanceof Unjudged ? err : await t.targetGone(err);
        if (unjudged) {
          t.unjudged(unjudged);
          vitest.skip(unjudged.message);
          return;
        }
        if (err instanceof ReadingStop) {
          stoppedAt(`the test ended at a reading that did not hold (${err.message})`, 'reading-stop');
          await allureWarnings(s.context.allureDir, meta);
          return;
        }
        // The test needed a request that could change the target: what it judged before is only
        // part of its rules' checks, so none of them is reported passed.
        if (err instanceof ReadOnlyRefusal)
          return leave('skipped', `${err.message} (a test of this rule needs it)`, 'read-only', err.message);
        if (isCodeError(err) || err instanceof SuiteDefect) {
          const at = /suites\/[^\s)]+/.exec(err.stack?.split('\n').find((l) => l.includes('/suites/')) ?? '')?.[0];
          const defect =
            err instanceof SuiteDefect
              ? err
              : new SuiteDefect(`suite error: ${err.name}: ${err.message}${at ? ` (at ${at})` : ''}`);
          stoppedAt(`the test stopped on a defect of the suite (${defect.message})`, 'suite-defect');
          throw defect;
        }
        if (!isConformanceFailure(err)) t.attributeError(err);
        // The rules no check reached: the test ended at a failed check before theirs (or ran none).
        unchecked(ended ? 'the test ran no check of this rule' : EARLIER_CHECK_FAILED);
        if (s.context.allureDir) {
          const severity = allureSeverity(Object.values(meta.outcomes).map((o) => o.failure?.severity));
          if (severity) await allure.severity(severity);
          for (const [id, o] of Object.entries(meta.outcomes)) {
            if (o.status !== 'failed' || !o.failure) continue;
            const f = o.failure;
            const text = `${id}\nExpected: ${f.expected}\nReceived: ${f.received}${f.seed !== undefined ? `\nSeed: ${f.seed} Path: ${f.path ?? ''}` : ''}${f.curl ? `\n\nReproduce with:\n${f.curl}` : ''}${f.noCurl ? `\n\nNo curl: ${f.noCurl}; the replay command sends the request as it was` : ''}`;
            await allure.attachment(`failure ${id}`, forTerminal(text), 'text/plain');
          }
        }
        throw err;
      } finally {
        await s.ledger.cleanup(scope);
      }
    },
  );
}

/** How a test is named across processes (its service and its own title, as `--shard` hashes it). */
export function testKey(service: string, name: string): string {
  return `${service}|${name}`;
}

/** Why a test was not run (or not finished): the target stopped answering. */
function unresponsiveReason(s: Session): string {
  return `target unresponsive since ${new Date(s.http.unresponsiveSince ?? Date.now()).toISOString()}`;
}

/** Deletes what a file's `beforeAll` created, after the file's tests. */
export function cleanupAfterFile(scope: string): void {
  afterAll(async () => {
    await session().ledger.cleanup(scope);
  });
}
