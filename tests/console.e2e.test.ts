import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, test } from 'vitest';
import { didYouMean } from '../cli/did-you-mean.ts';
import { parseDuration } from '../cli/duration.ts';
import { LOCK_FILE, lockReportDir } from '../cli/report-lock.ts';
import { EXIT, exitCodeOf } from '../cli/run-command.ts';
import { UsageError } from '../cli/usage-error.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { defaultReporter } from '../reporters/console/reporter-registry.ts';
import { profileText } from '../reporters/console-summary.ts';
import { testSelected } from '../suites/engine/test-selection.ts';
import { lineReporter } from '../reporters/console/line-reporter.ts';
import { annotations, exitAnnotation, runExitReason } from '../reporters/github-annotations.ts';
import { Terminal, colourWanted } from '../reporters/terminal.ts';
import { tlsHint } from '../suites/engine/http-client.ts';
import { hostileRunConfig } from './hostile-target.ts';
import { root, runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { loadRules } from '../contracts/catalog.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';

const ESC = '\u001b';
/** A target's text that would act on a terminal: window title, clipboard, a line wiped and overwritten. */
const PAYLOAD = `${ESC}]0;PWNED\u0007${ESC}]52;c;Y3VybA==\u0007\r${ESC}[2K\nConformance PASSED\u009b1m`;
// eslint-disable-next-line no-control-regex
const TERMINAL_ACTING = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;
/** The tool's own sequences: SGR colour, and the status line's carriage return and erase-line. */
// eslint-disable-next-line no-control-regex
const OWN_SEQUENCES = /\u001b\[\d+m|\r\u001b\[2K/g;

function fakeStream() {
  const chunks: string[] = [];
  return { chunks, columns: 60, write: (c: string) => (chunks.push(c), true), text: () => chunks.join('') };
}

describe('the terminal (the sanctioned way past the console guard)', () => {
  it('colours the tool’s own text and shows a target’s escape sequences as text', () => {
    const stream = fakeStream();
    const terminal = new Terminal(stream, { colour: true });
    terminal.line({ style: ['bold', 'red'], text: `technical-token-manager/x ${PAYLOAD}` });
    const out = stream.text();
    expect(out).toContain(`${ESC}[1m${ESC}[31mtechnical-token-manager/x`);
    expect(out).toContain('\\x1b]0;PWNED\\x07');
    expect(out.replace(OWN_SEQUENCES, '').replace(/\n$/, '')).not.toMatch(TERMINAL_ACTING);
  });

  it('without colour writes no escape sequence at all', () => {
    const stream = fakeStream();
    new Terminal(stream, { colour: false }).line({ style: 'green', text: 'ok' }, ' plain');
    expect(stream.text()).toBe('ok plain\n');
  });

  it('keeps one status line, cut to the width, and puts failure lines above it', () => {
    const stream = fakeStream();
    const terminal = new Terminal(stream, { colour: false });
    const reporter = lineReporter(terminal);
    const test = { name: 'x'.repeat(200), outcomes: {}, state: 'passed' } as never;
    const e = { service: 'notification', testsDone: 1, testsTotal: 4, done: 1, total: 4, failedRules: 0 } as const;
    reporter.onTest({ ...e, newlyFailed: [], test, elapsedMs: 2000, stopping: false });
    const failing = {
      name: 'y',
      state: 'failed',
      outcomes: { 'notification/a/b': { status: 'failed', failure: { title: 'wrong status' } } },
    } as never;
    reporter.onTest({
      ...e,
      done: 2,
      failedRules: 1,
      newlyFailed: ['notification/a/b'],
      test: failing,
      elapsedMs: 4000,
      stopping: false,
    });
    reporter.onTestsEnd();
    const screen = stream.text();
    const statuses = screen.split(`\r${ESC}[2K`).filter(Boolean);
    expect(statuses[0]).toMatch(/^\[1\/4\] 0 failed · 0:02 · ETA 0:06 · notification › x+…$/);
    expect([...statuses[0]].length).toBeLessThanOrEqual(59);
    expect(screen).toContain(`\r${ESC}[2K  ✗ notification/a/b — wrong status\n`);
    expect(screen).toContain('[2/4] 1 failed · 0:04 · ETA 0:04');
    expect(screen.endsWith(`\r${ESC}[2K`)).toBe(true);
  });

  test.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: false }, {}, false],
    [{ isTTY: false }, { FORCE_COLOR: '1' }, true],
    [{ isTTY: true }, { FORCE_COLOR: '0' }, false],
    [{ isTTY: true }, { NO_COLOR: '1' }, false],
    [{ isTTY: true }, { TERM: 'dumb' }, false],
  ])('colour for %o with %o: %s', (stream, env, expected) => {
    expect(colourWanted(stream, env)).toBe(expected);
  });

  test.each([
    [{ isTTY: true }, {}, 'line'],
    [{ isTTY: true }, { CI: 'true' }, 'list'],
    [{ isTTY: false }, {}, 'list'],
    [{ isTTY: false }, { CI: 'true', GITHUB_ACTIONS: 'true' }, 'github'],
  ])('default reporter for %o with %o: %s', (stream, env, expected) => {
    expect(defaultReporter(stream, env)).toBe(expected);
  });
});

describe('what the console counts and names', () => {
  const tests = Array.from({ length: 60 }, (_, i) => ({
    service: 'notification' as const,
    name: `test ${i}`,
    rules: [i % 2 ? 'notification/recipients/x' : 'notification/templates/y'],
    readOnly: i % 3 === 0,
  }));
  const context = { ruleGlobs: [], profile: 'full' as const };

  it('counts only the tests a selection runs: --rule, each --shard once, read-only', () => {
    expect(tests.filter((t) => testSelected(context, t))).toHaveLength(60);
    expect(tests.filter((t) => testSelected({ ...context, ruleGlobs: ['notification/recipients/*'] }, t))).toHaveLength(
      30,
    );
    expect(tests.filter((t) => testSelected({ ...context, profile: 'read-only' }, t))).toHaveLength(20);
    const shards = [1, 2, 3].map((index) =>
      tests.filter((t) => testSelected({ ...context, shard: { index, total: 3 } }, t)),
    );
    expect(
      shards
        .flat()
        .map((t) => t.name)
        .sort(),
    ).toEqual(tests.map((t) => t.name).sort());
  });

  test.each([
    [{ profile: 'full' }, 'full profile'],
    [{ profile: 'read-only', strict: true }, 'read-only profile, strict'],
    [{ profile: 'full', shard: '2/3', baseline: 'known.json' }, 'full profile, shard 2/3, baseline known.json'],
  ])('profile %o is named "%s"', (o, text) => {
    expect(profileText(o)).toBe(text);
  });
});

describe('exit codes', () => {
  const base = { verdict: 'failed', rules: [], errors: [], counts: {} } as unknown as ConformanceReport;
  const failedRule = { id: 'notification/a/b', status: 'failed', level: 'MUST' };
  test.each([
    ['passed', { verdict: 'passed' }, EXIT.passed],
    ['a rule failed', { rules: [failedRule] }, EXIT.failed],
    ['an error outside the tests', { errors: ['x'] }, EXIT.failed],
    ['timed out', { stopped: { reason: 'timed-out', detail: '' } }, EXIT.timedOut],
    ['target unresponsive', { stopped: { reason: 'target-unresponsive', detail: '' } }, EXIT.unresponsive],
    ['stale baseline', { baseline: { file: 'b', accepted: [], stale: ['x'], newFailures: [] } }, EXIT.staleBaseline],
    [
      'timed out with a failed rule',
      { rules: [failedRule], stopped: { reason: 'timed-out', detail: '' } },
      EXIT.failed,
    ],
    [
      'stale baseline and timed out',
      {
        stopped: { reason: 'timed-out', detail: '' },
        baseline: { file: 'b', accepted: [], stale: ['x'], newFailures: [] },
      },
      EXIT.timedOut,
    ],
    [
      'accepted failure and stale entry',
      { rules: [failedRule], baseline: { file: 'b', accepted: [failedRule.id], stale: ['x'], newFailures: [] } },
      EXIT.staleBaseline,
    ],
  ])('%s: exit %s', (_, over, code) => {
    expect(exitCodeOf({ ...base, ...over } as ConformanceReport)).toBe(code);
  });

  it('are listed in `run --help` and in the README', async () => {
    const help = (await runCli(['run', '--help'])).stdout;
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const code of Object.values(EXIT)) {
      expect(help).toMatch(new RegExp(`^ {2}${code}\\b`, 'm'));
      expect(readme).toMatch(new RegExp(`^\\| \`${code}\` \\|`, 'm'));
    }
  });
});

describe('durations', () => {
  test.each([
    ['500ms', 'ms', 500],
    ['10s', 'ms', 10_000],
    ['2m', 's', 120_000],
    ['1h', 's', 3_600_000],
    ['1500', 'ms', 1500],
    ['90', 's', 90_000],
  ] as const)('%s (a bare number is %s) is %d ms', (value, bare, ms) => {
    expect(parseDuration(value, '--x', { bare, minMs: 100 })).toBe(ms);
  });

  test.each(['abc', '10 minutes', '-5s', '50ms'])('"%s" is refused', (value) => {
    expect(() => parseDuration(value, '--timeout', { bare: 'ms', minMs: 100 })).toThrow(UsageError);
  });

  it('--timeout takes 10s and refuses what is not a duration (exit 2)', async () => {
    const bad = await runCli(['run', '--service', 'notification', '--timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--timeout takes a duration .* such as 500ms, 10s/);
    const doctor = await runCli(['doctor', '--timeout', '10 parsecs'], {
      env: { CONFORMANCE_CONFIG: '{"target":"http://127.0.0.1:9","principals":{"full":{"token":"x"}}}' },
    });
    expect(doctor.code).toBe(2);
    expect(doctor.stderr).toContain('--timeout takes a duration');
  }, 60_000);
});

describe('small things a new user meets', () => {
  it('--version prints the package version', async () => {
    const res = await runCli(['--version']);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(pkg.version);
  });

  test.each([
    ['notifications', 'notification'],
    ['notifcation', 'notification'],
    ['token-manager', 'technical-token-manager'],
    ['event', 'event-management'],
    ['xyz', undefined],
  ])('a service "%s": did you mean %s', (name, expected) => {
    expect(didYouMean(name, ['technical-token-manager', 'notification', 'event-management'])).toBe(expected);
  });

  it('--service notifications: exit 2, "did you mean notification?"', async () => {
    const res = await runCli(['run', '--service', 'notifications']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('unknown service notifications (did you mean notification?)');
  });
});

describe('TLS errors name --ca and --insecure', () => {
  test.each([
    ['DEPTH_ZERO_SELF_SIGNED_CERT', /self-signed: pass it .* --ca FILE\.pem, or .* --insecure/],
    ['SELF_SIGNED_CERT_IN_CHAIN', /self-signed.*--ca/],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', /a CA this machine does not know: .*--ca FILE\.pem.*--insecure/],
    ['ERR_TLS_CERT_ALTNAME_INVALID', /does not name the host of https:\/\/x.*--insecure/],
    ['CERT_HAS_EXPIRED', /validity period.*--insecure/],
  ])('%s', (code, hint) => {
    expect(tlsHint(code, 'https://x')).toMatch(hint);
  });

  const openssl = spawnSync('openssl', ['version']).status === 0;
  const dir = tempDir('tls');
  const servers: Array<{ close(): void }> = [];
  afterAll(() => servers.forEach((s) => s.close()));

  /** An HTTPS server with a certificate made by `openssl req` with these arguments. */
  async function httpsServer(name: string, args: string[]): Promise<string> {
    const key = join(dir, `${name}.key`);
    const cert = join(dir, `${name}.pem`);
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      ...args,
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_, res) => res.end('{}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    servers.push(server);
    return `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it.skipIf(!openssl)(
    'doctor and run: self-signed, and a certificate for another host',
    async () => {
      const selfSigned = await httpsServer('self', [
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ]);
      const otherHost = await httpsServer('other', [
        '-subj',
        '/CN=example.test',
        '-addext',
        'subjectAltName=DNS:example.test',
      ]);
      const env = (target: string) => ({
        CONFORMANCE_CONFIG: JSON.stringify({ target, principals: { full: { token: 'x' } } }),
      });
      const doctor = await runCli(['doctor'], { env: env(selfSigned) });
      expect(doctor.code).toBe(3);
      expect(doctor.stdout).toMatch(/self-signed: pass it .*--ca FILE\.pem.*--insecure/);
      const run = await runCli(['run', '--service', 'notification', '--report-dir', join(dir, 'r')], {
        env: env(selfSigned),
      });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/cannot reach .*self-signed.*--ca FILE\.pem.*--insecure/);
      const mismatch = await runCli(['doctor', '--ca', join(dir, 'other.pem')], { env: env(otherHost) });
      expect(mismatch.code).toBe(3);
      expect(mismatch.stdout).toMatch(/does not name the host.*--insecure/);
    },
    90_000,
  );
});

describe('the lock on a report folder', () => {
  it('is taken, refused while its run lives (naming the PID), taken over when its run is gone', () => {
    const dir = tempDir('lock');
    const release = lockReportDir(dir);
    const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(process.pid);
    expect(() => lockReportDir(dir)).toThrow(new RegExp(`in use by another run \\(PID ${process.pid},`));
    release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    // A run killed with SIGKILL leaves its lock: a PID that no longer exists.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: Number(gone), host: hostname(), startedAt: 'x' }));
    lockReportDir(dir)();
  });
});

/** A deployment whose every answer but the token carries the payload. */
async function startPayloadTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    const token = req.url?.includes('/oauth/token');
    const body = token
      ? { access_token: 'eyJhbGciOiJub25lIn0.eyJ0ZW4iOiJ4In0.', token_type: 'bearer', expires_in: 3600 }
      : { errors: [{ code: PAYLOAD, message: PAYLOAD }], id: PAYLOAD, name: PAYLOAD };
    res.writeHead(token ? 200 : 400, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('a run on the console', () => {
  let target: { url: string; close(): Promise<void> };
  const dir = tempDir('console');
  const config = join(dir, 'run.json');
  beforeAll(async () => {
    target = await startPayloadTarget();
    writeFileSync(config, hostileRunConfig(target as never, 'console-secret'));
  });
  afterAll(() => target.close());

  /** A short token-manager run against the payload target, with `args` and `env` added. */
  const runTokenManager = (args: string[], env: Record<string, string>) =>
    runCli(['run', '--config', config, '--service', 'technical-token-manager', '--runs', '2', '--seed', '1', ...args], {
      env,
      timeoutMs: 120_000,
    });

  it('line reporter with colour: a status line, a line per failure, the target’s escapes shown as text', async () => {
    const res = await runTokenManager(['--reporter', 'line', '--report-dir', join(dir, 'line')], {
      FORCE_COLOR: '1',
      NO_COLOR: '',
      CI: '',
    });
    expect(res.code, res.stderr).toBe(EXIT.failed);
    const out = res.stdout;
    expect(out).toContain(`${ESC}[1mconformance run${ESC}[22m`);
    // eslint-disable-next-line no-control-regex
    expect(out).toMatch(/\r\u001b\[2K\u001b\[1m\[\d+\/\d+\]\u001b\[22m \u001b\[1m\u001b\[31m\d+ failed/);
    expect(out).toMatch(
      // eslint-disable-next-line no-control-regex
      / {2}\u001b\[31m✗\u001b\[39m \u001b\[1m\u001b\[31mtechnical-token-manager\/[a-z0-9/-]+\u001b\[39m\u001b\[22m — /,
    );
    expect(out).toContain(`${ESC}[1m${ESC}[31mConformance FAILED — full profile — ${target.url}`);
    // The payload reached the console (in Received) only as text.
    // (Received is JSON, which escapes C0 controls itself; the C1 control is escaped by the console.)
    expect(out).toContain('\\u001b]0;PWNED\\u0007');
    expect(out).toContain('Conformance PASSED\\x9b1m');
    expect(out.replace(OWN_SEQUENCES, '')).not.toMatch(TERMINAL_ACTING);
    expect(out).not.toMatch(/^\s*Conformance PASSED/m);
    // No counter past its total.
    for (const [, done, total] of out.matchAll(/\[(\d+)\/(\d+)\]/g))
      expect(Number(done)).toBeLessThanOrEqual(Number(total));
  }, 150_000);

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'on a real terminal (a pseudo-terminal made by script): line by default, in colour, and nothing of vitest’s cursor codes shown as text',
    async () => {
      const command = `node bin/conformance.js run --service notification --rule 'notification/recipients/*' --seed 1 --report-dir ${join(dir, 'tty')}`;
      const res = await new Promise<string>((resolve) => {
        const child = spawn('script', ['-qec', command, '/dev/null'], {
          cwd: root,
          env: { ...process.env, CI: '', GITHUB_ACTIONS: '', NO_COLOR: '', TERM: 'xterm' },
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.on('close', () => resolve(out));
      });
      expect(res).toContain(`${ESC}[1mconformance run${ESC}[22m`);
      // eslint-disable-next-line no-control-regex
      expect(res).toMatch(/\r\u001b\[2K\u001b\[1m\[1\/\d+\]/);
      // eslint-disable-next-line no-control-regex
      expect(res).toMatch(/\u001b\[1m\u001b\[32mConformance PASSED — full profile — /);
      expect(res).not.toContain('\\x1b');
    },
    120_000,
  );

  it('github reporter: an ::error per failed rule titled with its ID, escaped, and the step summary written', async () => {
    const summary = join(dir, 'step-summary.md');
    writeFileSync(summary, '');
    const res = await runTokenManager(['--report-dir', join(dir, 'gh')], {
      GITHUB_ACTIONS: 'true',
      CI: 'true',
      GITHUB_STEP_SUMMARY: summary,
      NO_COLOR: '1',
    });
    expect(res.code, res.stderr).toBe(EXIT.failed);
    const report = JSON.parse(readFileSync(join(dir, 'gh', 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const failed = report.rules.filter((r) => r.status === 'failed');
    const errors = res.stdout.split('\n').filter((l) => l.startsWith('::error '));
    // One per failed rule, then the one that says why the run exits 1.
    expect(errors.length).toBe(Math.min(failed.length, 50) + (failed.length > 50 ? 1 : 0) + 1);
    expect(errors).toEqual([...annotations(report), exitAnnotation('run', runExitReason(report, EXIT.failed))]);
    for (const [i, r] of failed.slice(0, 50).entries()) {
      expect(errors[i]).toMatch(new RegExp(`^::error title=${r.id}::.*Expected: `));
      expect(errors[i]).not.toMatch(TERMINAL_ACTING);
    }
    expect(readFileSync(summary, 'utf8')).toBe(readFileSync(join(dir, 'gh', 'summary.md'), 'utf8'));
  }, 150_000);

  it('a one-rule read-only run with a baseline: lines only for selected tests, the profile in headline and summary, exit 6 for a stale entry', async () => {
    const reportDir = join(dir, 'ro');
    mkdirSync(reportDir, { recursive: true });
    // A lock left by a run that is gone is taken over.
    writeFileSync(join(reportDir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 1, host: hostname(), startedAt: 'x' }));
    const baseline = join(dir, 'known.json');
    const rule = 'technical-token-manager/identification/application-match';
    writeFileSync(baseline, JSON.stringify([rule]));
    const res = await runCli(
      [
        'run',
        '--service',
        'technical-token-manager',
        '--rule',
        rule,
        '--profile',
        'read-only',
        '--baseline',
        baseline,
        '--strict',
        '--seed',
        '1',
        '--reporter',
        'list',
        '--report-dir',
        reportDir,
      ],
      { env: { NO_COLOR: '1' }, timeoutMs: 120_000 },
    );
    expect(res.code, res.stdout + res.stderr).toBe(EXIT.staleBaseline);
    const lines = res.stdout.split('\n');
    expect(lines[0]).toBe(`conformance run — seed 1 — read-only profile, strict, baseline ${baseline}`);
    const testLines = lines.filter((l) => /^ {2}[✓✗-] \d+\/\d+ /.test(l));
    expect(testLines.length).toBeGreaterThan(0);
    expect(testLines.length).toBeLessThan(5);
    for (const l of testLines) expect(l).toMatch(/^ {2}[✓✗-] (\d+)\/\d+ technical-token-manager › /);
    expect(res.stdout).toMatch(
      new RegExp(
        `^Conformance FAILED — read-only profile, strict, baseline ${baseline.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} — `,
        'm',
      ),
    );
    expect(res.stdout).toContain('read-only profile: only requests that change nothing were sent');
    expect(existsSync(join(reportDir, LOCK_FILE))).toBe(false);
  }, 150_000);

  it('quiet, --max-time reached: only the summary, exit 4', async () => {
    const res = await runCli(
      [
        'run',
        '--service',
        'technical-token-manager',
        '--max-time',
        '1s',
        '--reporter',
        'quiet',
        '--report-dir',
        join(dir, 'quiet'),
      ],
      { env: { NO_COLOR: '1' }, timeoutMs: 120_000 },
    );
    expect(res.code, res.stdout + res.stderr).toBe(EXIT.timedOut);
    expect(res.stdout).not.toMatch(/conformance run|target:|^ {2}[✓✗-] /m);
    expect(res.stdout).toMatch(/^Conformance FAILED \(timed-out\) — full profile — /m);
  }, 150_000);

  it('refuses a report folder another live run writes into, naming its PID (exit 2)', async () => {
    const reportDir = join(dir, 'locked');
    mkdirSync(reportDir, { recursive: true });
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      writeFileSync(join(reportDir, LOCK_FILE), JSON.stringify({ pid: other.pid, host: hostname(), startedAt: 'x' }));
      const res = await runCli(['run', '--service', 'notification', '--report-dir', reportDir]);
      expect(res.code).toBe(EXIT.usage);
      expect(res.stderr).toContain(`is in use by another run (PID ${other.pid},`);
      expect(existsSync(join(reportDir, 'conformance-report.json'))).toBe(false);
    } finally {
      other.kill();
    }
  }, 90_000);
});

describe('a --rule selection on the console', () => {
  it("'notification/*' selects every rule of the service (a dry run sends nothing)", async () => {
    const res = await runCli(['run', '--service', 'notification', '--rule', 'notification/*', '--dry-run']);
    expect(res.code, res.stderr).toBe(0);
    const rules = loadRules(['notification']).filter((r) => r.status !== 'retired').length;
    expect(res.stdout).toContain(`dry run: nothing is sent. ${rules} rules of notification;`);
  });

  it('a glob that selects nothing says how globs read rule IDs', async () => {
    const res = await runCli(['run', '--service', 'notification', '--rule', 'notification/recipient', '--dry-run']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("* matching / too: 'notification/*', '*thrott*'");
  });

  describe('a rule an after-every-request check judges, against a deployment that breaks another', () => {
    let ref: RunningReference;
    beforeAll(async () => {
      ref = await startReference({ port: 0, faults: ['access-token-not-a-jwt'] });
    });
    afterAll(() => ref.close());

    it('shows no ✗ for the rules --rule left out: every test runs, only the selected rule is counted', async () => {
      const dir = tempDir('console-rule');
      const config = join(dir, 'run.json');
      writeFileSync(config, JSON.stringify(referenceRunConfig(ref, ref.baseUrl)));
      const res = await runCli(
        [
          'run',
          '--config',
          config,
          '--service',
          'technical-token-manager',
          '--rule',
          'technical-token-manager/errors/logref',
          '--runs',
          '2',
          '--reporter',
          'list',
          '--report-dir',
          join(dir, 'r'),
        ],
        { env: { NO_COLOR: '1' }, timeoutMs: 120_000 },
      );
      expect(res.code, res.stdout).toBe(0);
      // The check runs after every request of every test of the service; the tests' own rules,
      // which the fault breaks, are not the selection's.
      expect(res.stdout.split('\n').filter((l) => /^ {2}✓ \d+\/\d+ /.test(l)).length).toBeGreaterThan(10);
      expect(res.stdout).not.toContain('✗');
      expect(res.stdout).toMatch(/rules: 1 {2}passed 1 {2}failed 0/);
    }, 150_000);
  });
});
