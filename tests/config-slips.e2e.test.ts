import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { startReference, type RunningReference } from '../fixtures/reference/server.ts';
import type { ConformanceReport } from '../reporters/conformance-report.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { runCli } from './run-cli.ts';
import { tempDir } from './temp-dir.ts';

// Configuration slips a new user makes, each against the embedded reference: none may become a
// failed rule, each is named by its key, and `doctor` predicts exactly what the run skips.

let ref: RunningReference;
const dir = tempDir('config-slips');
// A loaded machine must not turn a slow answer into a verdict: these runs judge configuration.
const TIMEOUT = ['--timeout', '60000'];

beforeAll(async () => {
  ref = await startReference({ port: 0 });
});
afterAll(async () => {
  await ref.close();
});

function writeConfig(name: string, mutate: (c: RunConfig) => void): string {
  const c = structuredClone(referenceRunConfig(ref, ref.baseUrl));
  mutate(c);
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(c));
  return file;
}

/** The rules doctor's closing list says a run will skip for want of configuration. */
function doctorSkips(stdout: string): string[] {
  if (stdout.includes('Everything is ready')) return [];
  const list = stdout.split(/A run will skip \d+ rules? for want of configuration:\n/)[1] ?? '';
  return list
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[a-z-]+\/[a-z0-9-]+\/[a-z0-9-]+$/.test(l))
    .sort();
}

async function run(name: string, config: string, extra: string[] = []) {
  const reportDir = join(dir, name);
  const res = await runCli(
    ['run', '--config', config, '--report-dir', reportDir, '--seed', '1', ...TIMEOUT, ...extra],
    {
      timeoutMs: 400_000,
    },
  );
  const report = JSON.parse(readFileSync(join(reportDir, 'conformance-report.json'), 'utf8')) as ConformanceReport;
  return { res, report };
}

/**
 * Runs doctor and run on a slipped configuration and checks what the issue asks of each slip;
 * with `service`, the run tests that service only and doctor's list is read for it.
 */
async function slip(name: string, config: string, keys: string[], service?: string) {
  const doctor = await runCli(['doctor', '--config', config, ...TIMEOUT], { timeoutMs: 200_000 });
  expect(doctor.code, doctor.stderr).toBe(1);
  const { res, report } = await run(name, config, service ? ['--service', service] : []);
  const failed = report.rules.filter((r) => r.status === 'failed');
  expect(failed.map((r) => `${r.id}: ${r.failure?.received}`)).toEqual([]);
  expect(res.code, res.stdout.slice(-1500)).toBe(0);
  const configSkips = report.rules.filter(
    (r) => r.status === 'skipped' && (r.reasonCode === 'configuration' || r.reasonCode === 'principal'),
  );
  // Skip reasons speak of the target, never of the embedded reference.
  expect(report.rules.filter((r) => /\breference\b/i.test(r.reason ?? '')).map((r) => r.reason)).toEqual([]);
  const predicted = doctorSkips(doctor.stdout).filter((id) => !service || id.startsWith(`${service}/`));
  expect(predicted.length).toBeGreaterThan(0);
  expect(configSkips.map((r) => r.id).sort()).toEqual(predicted);
  for (const key of keys) {
    expect(doctor.stdout).toMatch(new RegExp(`\\n\\s*${key.replace(/[.[\]"]/g, '\\$&')}.*\\((missing|failed)\\)`));
    expect(configSkips.some((r) => r.reason?.startsWith(key))).toBe(true);
  }
  return { doctor, report };
}

/**
 * An HTTP proxy in front of the reference: after `dieAfter` requests it closes every connection
 * and refuses more; a request whose URL `slow` matches is answered `slowMs` later.
 */
async function frontProxy(opts: {
  dieAfter?: number;
  slow?: RegExp;
  slowMs?: number;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(ref.baseUrl);
  const sockets = new Set<Socket>();
  let seen = 0;
  let dead = false;
  const server: Server = createServer((req, res) => {
    if (dead || ++seen > (opts.dieAfter ?? Infinity)) {
      if (!dead) {
        dead = true;
        server.close();
      }
      for (const s of sockets) s.destroy();
      return;
    }
    const forward = () => {
      const out = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', () => res.destroy());
      req.pipe(out);
    };
    if (opts.slow?.test(req.url ?? '')) setTimeout(forward, opts.slowMs ?? 0);
    else forward();
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
        if (dead) r();
      }),
  };
}

/** A wrong secret for a principal. */
const secret = (name: 'otherTenant' | 'noScopes') => (c: RunConfig) =>
  ((c.principals![name] as { clientSecret: string }).clientSecret = 'not-the-secret');
const emFixtures = (c: RunConfig) => c.fixtures!.eventManagement as Record<string, unknown>;
const nfFixtures = (c: RunConfig) => c.fixtures!.notification as Record<string, unknown>;

describe('configuration slips never become verdicts', () => {
  it('a wrong secret for principals.noScopes and no fixtures at all: skipped naming each key, as doctor predicts', async () => {
    const file = writeConfig('no-scopes-no-fixtures', (c) => {
      secret('noScopes')(c);
      delete c.fixtures;
    });
    const { doctor, report } = await slip('no-scopes-no-fixtures', file, [
      'principals.noScopes',
      'fixtures.eventManagement.entityIds',
    ]);
    expect(JSON.stringify(report) + doctor.stdout).not.toContain('not-the-secret');
  }, 600_000);

  it('a fixture ID the target does not hold: skipped naming the key, as doctor predicts', async () => {
    // The read that finds the fixture missing answers late, after the suites' runner has started:
    // the tests must still learn it before they start (they once ran, and failed on the 404).
    const proxy = await frontProxy({ slow: /othertenant\.nosuchtype/, slowMs: 5_000 });
    try {
      const file = writeConfig('wrong-fixture', (c) => {
        c.target = proxy.url;
        (c.fixtures!.eventManagement as Record<string, unknown>).sharedEventTypeId = 'othertenant.nosuchtype';
      });
      // An event management fixture: the run tests that service, as the slips below do.
      await slip('wrong-fixture', file, ['fixtures.eventManagement.sharedEventTypeId'], 'event-management');
    } finally {
      await proxy.close();
    }
  }, 600_000);

  // A piece broken one at a time, and a few together: each run tests the service the slip
  // touches (the event management run against the embedded reference takes 10–20 s).
  it.each<{ what: string; service?: string; keys: string[]; mutate: (c: RunConfig) => void }>([
    {
      what: 'a principal removed (principals.operator)',
      service: 'notification',
      keys: ['principals.operator'],
      mutate: (c) => delete c.principals!.operator,
    },
    {
      what: 'a principal removed (principals.otherTenant)',
      service: 'event-management',
      keys: ['principals.otherTenant'],
      mutate: (c) => delete c.principals!.otherTenant,
    },
    {
      what: 'a fixture removed (fixtures.notification.paramTypeId)',
      service: 'notification',
      keys: ['fixtures.notification.paramTypeId'],
      mutate: (c) => delete nfFixtures(c).paramTypeId,
    },
    {
      what: 'the notification fixtures object removed',
      service: 'notification',
      keys: ['fixtures.notification.channels', 'fixtures.notification.addressTypes'],
      mutate: (c) => delete c.fixtures!.notification,
    },
    {
      what: 'the event management fixtures object removed',
      service: 'event-management',
      keys: ['fixtures.eventManagement.entityIds', 'fixtures.eventManagement.sharedEventTypeId'],
      mutate: (c) => delete c.fixtures!.eventManagement,
    },
    {
      what: "several together: otherTenant's wrong secret, no principal without em.c, no channels, no sharedEventId",
      keys: [
        'principals.otherTenant',
        'principals.withoutScope["em.c"]',
        'fixtures.notification.channels',
        'fixtures.eventManagement.sharedEventId',
      ],
      mutate: (c) => {
        secret('otherTenant')(c);
        delete c.principals!.withoutScope!['em.c'];
        delete nfFixtures(c).channels;
        delete emFixtures(c).sharedEventId;
      },
    },
  ])(
    "$what: 0 failed rules, the key named, doctor predicts the run's skips",
    async ({ what, service, keys, mutate }) => {
      const name = what.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await slip(name, writeConfig(name, mutate), keys, service);
    },
    600_000,
  );

  it('a target URL with a path is refused with exit 2 wherever a target is taken', async () => {
    const root = writeConfig('root', () => {});
    const withPath = `${ref.baseUrl}/api/eventmanagement/v3`;
    const inConfig = writeConfig('path', (c) => (c.target = withPath));
    const hint = 'give the host root';
    for (const args of [
      ['run', '--config', root, '--target', withPath],
      ['run', '--config', inConfig],
      ['doctor', '--config', root, '--target', withPath],
      ['doctor', '--config', inConfig],
      [
        'certify',
        '--config',
        inConfig,
        '--vendor',
        'V',
        '--product',
        'P',
        '--product-version',
        '1',
        '--out',
        join(dir, 'bundle'),
      ],
      ['proxy', '--target', withPath, '--listen', '0'],
    ]) {
      const res = await runCli(args, { timeoutMs: 60_000 });
      expect(res.code, `${args.join(' ')}\n${res.stdout}${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(hint);
      expect(res.stderr).toContain('the tool adds /api/<service>/v3');
    }
  }, 300_000);

  it('a target that stops answering mid-run: its rules are not exercised, naming the error, none failed', async () => {
    const proxy = await frontProxy({ dieAfter: 400 });
    try {
      const file = writeConfig('dying', (c) => (c.target = proxy.url));
      const { res, report } = await run('dying', file);
      const failed = report.rules.filter((r) => r.status === 'failed');
      expect(failed.map((r) => `${r.id}: ${r.failure?.received}`)).toEqual([]);
      // Documented: a run the target stopped answering, no rule failed before, ends with exit 5 and says why.
      expect(res.code).toBe(5);
      expect(report.stopped?.reason).toBe('target-unresponsive');
      const unexercised = report.rules.filter((r) => r.status === 'not-exercised');
      expect(unexercised.length).toBeGreaterThan(50);
      expect(
        unexercised.every(
          (r) =>
            /target unresponsive since|could not be talked to/.test(r.reason ?? '') &&
            (r.reasonCode === 'target-unresponsive' || r.reasonCode === 'transport'),
        ),
        unexercised.map((r) => r.reason).join('\n'),
      ).toBe(true);
      expect(report.rules.some((r) => r.reasonCode === 'configuration' || r.reasonCode === 'principal')).toBe(false);
    } finally {
      await proxy.close();
    }
  }, 600_000);
});
