import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { configSchemaReference, type RunConfig } from '../suites/engine/run-config.ts';
import { loadFaults } from '../fixtures/faults/registry.ts';
import { startReference } from '../fixtures/reference/server.ts';
import { REFERENCE_THROTTLE, THROTTLED_CLIENTS, referenceRunConfig } from './reference-config.ts';
import { parseDuration } from './duration.ts';
import { ownHostGuard } from './own-host-guard.ts';
import { UsageError } from './usage-error.ts';

export interface ServeOptions {
  host: string;
  port: string;
  allowHost?: string[];
  allowOrigin?: string[];
  writeConfig?: string;
  throttle?: string;
  visibilityDelay?: string;
  latency?: string;
  fault?: string[];
  /** `alternate`: the other side of every reading of ours that the documents allow. */
  profile?: string;
}

function nonNegativeInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} takes a whole number ≥ 0, not "${value}"`);
  return n;
}

/** The configuration `serve --write-config FILE` writes: the reference's, naming its JSON Schema for editors. */
export function servedConfig(
  ref: Parameters<typeof referenceRunConfig>[0] & { baseUrl: string },
  file: string,
): RunConfig {
  return { $schema: configSchemaReference(file), ...referenceRunConfig(ref, ref.baseUrl) };
}

/** `conformance serve`: the reference deployment, until SIGINT or SIGTERM. */
export async function serveCommand(opts: ServeOptions): Promise<void> {
  const port = nonNegativeInt(opts.port, '--port') ?? 4010;
  const known = new Set((await loadFaults()).map((f) => f.id));
  const unknown = (opts.fault ?? []).filter((f) => !known.has(f));
  if (unknown.length)
    throw new UsageError(`unknown fault variant ${unknown.join(', ')}; \`conformance faults\` lists them`);
  // A page in the user's browser must not reach the deployment (DNS rebinding, a cross-site
  // form): only requests addressed to this server, from no other site.
  const refuse = ownHostGuard({
    listenHost: opts.host,
    allowHosts: opts.allowHost,
    allowOrigins: opts.allowOrigin,
    report: (line) => process.stderr.write(`conformance serve: ${line}\n`),
  });
  const ref = await startReference({
    host: opts.host,
    port,
    refuse,
    // The client --write-config names principals.throttled is throttled, as the embedded
    // reference of `run` throttles it, so that a run or certify of this configuration judges the
    // 429 rules; --throttle N throttles every client instead (0: none).
    ...(opts.throttle === undefined
      ? { throttle: REFERENCE_THROTTLE, throttledClients: THROTTLED_CLIENTS }
      : { throttle: nonNegativeInt(opts.throttle, '--throttle') || undefined }),
    visibilityDelayMs: parseDuration(opts.visibilityDelay, '--visibility-delay', { bare: 'ms', minMs: 0 }),
    latencyMs: parseDuration(opts.latency, '--latency', { bare: 'ms', minMs: 0 }),
    faults: opts.fault,
    alternate: opts.profile === 'alternate',
  }).catch((e: Error & { code?: string }) => {
    if (e.code === 'EADDRINUSE')
      throw new UsageError(`port ${port} on ${opts.host} is already in use; choose another with --port`);
    throw e;
  });
  process.stdout.write(
    `Reference deployment${opts.profile === 'alternate' ? ' (alternate profile)' : ''} listening on ${ref.baseUrl}\n`,
  );
  process.stdout.write(
    `  ${ref.baseUrl}/api/technicaltokenmanager/v3\n  ${ref.baseUrl}/api/notification/v3\n  ${ref.baseUrl}/api/eventmanagement/v3\n`,
  );
  if (opts.writeConfig) {
    // The configuration holds client secrets: readable by its owner only.
    writeOutputFile(opts.writeConfig, `${JSON.stringify(servedConfig(ref, opts.writeConfig), null, 2)}\n`, 0o600);
    process.stdout.write(`Run configuration written to ${opts.writeConfig}\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = async (signal: string) => {
      process.stdout.write(`\n${signal}: stopping\n`);
      // Connections are closed by force; should closing still take longer, stop anyway.
      setTimeout(() => process.exit(0), 5000).unref();
      await ref.close();
      resolve();
    };
    process.once('SIGINT', () => void stop('SIGINT'));
    process.once('SIGTERM', () => void stop('SIGTERM'));
  });
}
