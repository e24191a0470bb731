import { writeFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { session } from './session.ts';

// After each suite file: sweep whatever the file's tests left behind, and hand the run's
// counters (requests, 429s absorbed, resources created and deleted) to the command line.
afterAll(async () => {
  const s = session();
  await s.ledger.cleanup();
  const file = s.context.ledgerFile?.replace(/\.jsonl$/, '.state.json');
  if (!file) return;
  writeFileSync(
    file,
    JSON.stringify({
      http: {
        requests: s.http.stats.requests,
        throttled: s.http.stats.throttled,
        retriedAfter429: s.http.stats.retriedAfter429,
        transportErrors: s.http.stats.transportErrors,
      },
      throttleSamples: s.http.stats.throttleSamples,
      cleanup: { created: s.ledger.stats.created, deleted: s.ledger.stats.deleted, outstanding: s.ledger.outstanding(), failures: s.ledger.stats.cleanupFailures },
    }),
  );
});
