import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment a test runs the CLI in: outside GitHub Actions unless the test says otherwise
 * (the runs a test makes fail on purpose must not annotate this repository's own CI job or write
 * to its step summary), and with no target or configuration a developer exported for pasting curls.
 */
export function cliEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GITHUB_ACTIONS: '',
    GITHUB_STEP_SUMMARY: '',
    CONFORMANCE_TARGET: '',
    CONFORMANCE_CONFIG: '',
    ...extra,
  };
}

/** Runs `conformance …` in a child process, as a user would, with a time limit. */
export function runCli(
  args: string[],
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/conformance.js'), ...args], {
      cwd: root,
      env: cliEnv(opts.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `conformance ${args.join(' ')} did not end within ${opts.timeoutMs ?? 60_000} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, opts.timeoutMs ?? 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface CliServer {
  url: string;
  port: number;
  /** Stops it with SIGTERM (once); its output once it has ended. */
  stop(): Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** Starts `conformance …` in a child process and waits for the line that names its URL. */
export async function startCli(args: string[], ready: RegExp): Promise<CliServer> {
  const child = spawn(process.execPath, [join(root, 'bin/conformance.js'), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} did not start: ${stdout}${stderr}`)), 60_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      const m = ready.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void closed.then(() => reject(new Error(`${args[0]} ended: ${stdout}${stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return { code: await closed, stdout, stderr };
    },
  };
}
