import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';
import type { ServiceName } from '../../contracts/services.ts';
import { SERVICE_INFO } from '../../contracts/services.ts';
import { isLeftover, type Sweeper } from './leftovers.ts';
import { redactValue } from './redact.ts';
import type { RunState } from './run-state.ts';
import { flushHar, session } from './session.ts';

// Once per run, before the first test: what earlier runs that crashed left on the target
// (resources whose prefix is more than an hour old) is deleted by each service's sweeper, the
// services at once. A run starts it as this file loads, so that it goes on while vitest imports
// the spec files (a dry run's collection sends nothing); the first test waits for it. A read-only
// run changes nothing, so it sweeps nothing. The sweep is kept on the session, so that it runs
// once however often vitest evaluates this setup file.
function leftoverSweep(): Promise<number> | undefined {
  const s = session();
  if (s.context.profile === 'read-only' || s.context.fresh) return undefined;
  s.leftoverSweep ??= (async () => {
    const swept = await Promise.all(
      ((s.context.services ?? []) as ServiceName[]).map(async (service) => {
        const file = fileURLToPath(new URL(`../${service}/sweep.ts`, import.meta.url));
        if (!existsSync(file)) return 0;
        const sweeper = ((await import(file)) as { default: Sweeper }).default;
        try {
          return await sweeper({
            send: async (svc, req) => {
              const authorization = await s.tokens.authorization('full');
              return s.http.send({
                ...req,
                path: `${SERVICE_INFO[svc].basePath}${req.path}`,
                headers: { ...(req.headers ?? {}), authorization },
              });
            },
            isLeftover: (name) => isLeftover(name, Date.now(), s.context.prefix),
            fixtures: s.context.config.fixtures ?? {},
            dialect: await s.filterDialect,
          });
        } catch {
          // Sweeping is best effort: a target that cannot be swept is judged by the tests.
          return 0;
        }
      }),
    );
    return swept.reduce((a, b) => a + b, 0);
  })();
  return s.leftoverSweep;
}

if (inject('sweepAtSetup')) leftoverSweep()?.catch(() => {});

beforeAll(async () => {
  await leftoverSweep();
}, 120_000);

// A test's errors leave this worker for the main thread's reporters (Allure, JUnit, the report's
// errors): what a failed assertion quotes of the target's answers is redacted here, where the
// run's tokens are known. (This hook is the root suite's, so it runs after the suites' own.)
afterEach(({ task }) => {
  if (task.result?.errors?.length) task.result.errors = task.result.errors.map((e) => redactValue(e));
});

// After each suite file: sweep whatever the file's tests left behind, and hand the run's
// counters (requests, 429s absorbed, resources created and deleted) to the command line on the
// file's task meta, which vitest sends to the main process with the file's result.
// vitest reads the hook's first parameter (the context) only as a destructuring pattern.
// eslint-disable-next-line no-empty-pattern
afterAll(async ({}, file) => {
  const s = session();
  // A test the run stopped (a signal, --max-time, a test's timeout) may still have a request under
  // way whose creation is noted only when it answers: the cleanup waits for it, and sweeps again
  // what was noted while it ran.
  await s.http.settled(s.context.timeoutMs);
  for (let pass = 0; pass < 3; pass++) {
    const tracked = s.ledger.size;
    await s.ledger.cleanup();
    await s.http.settled(s.context.timeoutMs);
    if (s.ledger.size === tracked) break;
  }
  flushHar();
  file.meta.runState = redactValue({
    http: {
      requests: s.http.stats.requests,
      throttled: s.http.stats.throttled,
      retriedAfter429: s.http.stats.retriedAfter429,
      transportErrors: s.http.stats.transportErrors,
    },
    unresponsiveSince: s.http.unresponsiveSince,
    cleanup: {
      created: s.ledger.stats.created,
      deleted: s.ledger.stats.deleted,
      outstanding: s.ledger.outstanding(),
      failures: s.ledger.stats.cleanupFailures,
      budgetSpent: s.ledger.stats.gaveUp,
      leftoversSwept: s.leftoverSweep ? await s.leftoverSweep : 0,
    },
  }) satisfies RunState;
});
