// `npm run bench:reference`: the reference deployment's own figures (printed, never pass/fail).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReference } from '../fixtures/reference/server.ts';
import type { EventManagement } from '../fixtures/reference/event-management/create-event-management.ts';
import type { EventRecord } from '../fixtures/reference/event-management/model.ts';
import { fmt, fmtSpread, percentile } from './stats.ts';

const line = (s = '') => process.stdout.write(`${s}\n`);
const EM = '/api/eventmanagement/v3';
const quick = process.argv.includes('--quick');

const ref = await startReference({ port: 0 });
const full = ref.ctx.seed.applications.find((a) => a.role === 'full')!;
const auth = `Bearer ${(await ref.ctx.tokens.issue(full, full.hostTenant)).access_token}`;
const em = ref.ctx.internals.get('eventManagement') as EventManagement | undefined;
if (!em) throw new Error('the event management plugin does not expose its internals');
const store = em.context.store;
const entityId = (ref.fixtures.eventManagement as { entityIds: string[] }).entityIds[0];

async function call(method: string, path: string, json?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ref.baseUrl}${EM}${path}`, {
    method,
    headers: { authorization: auth, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: json !== undefined ? JSON.stringify(json) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function eventType(name: string): Promise<string> {
  const res = await call('POST', '/eventTypes', {
    name,
    fields: [
      { name: 'reading', type: 'INTEGER', filterable: true },
      { name: 'label', type: 'STRING', filterable: true },
    ],
  });
  if (res.status !== 201) throw new Error(`event type: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Inserts `n` events of a type straight into the store (seeding only; the measured work goes through HTTP). */
function seed(typeId: string, n: number): void {
  const now = Date.now();
  for (let i = 0; i < n; i++) {
    const e: EventRecord = {
      // Ascending timestamps: the store keeps events sorted, so each insert is an append.
      id: randomUUID(),
      tenant: full.hostTenant,
      typeId,
      correlationId: randomUUID(),
      entityId,
      timestamp: now - (n - i) * 10,
      etag: 0,
      values: { reading: i % 1000, label: `l${i % 97}` },
      seq: store.nextSeq(),
      latest: true,
      visibleFrom: 0,
    };
    store.insertEvent(e);
  }
}

line(`# reference deployment benchmarks (${new Date().toISOString()}, Node ${process.version})`);

// 1. A delete job over 1,000,000 stored events.
{
  const n = quick ? 200_000 : 1_000_000;
  const typeId = await eventType('benchdelete');
  let t = performance.now();
  seed(typeId, n);
  line(`\n## Delete job over ${n.toLocaleString('en')} stored events (target ≤ 10 s)`);
  line(`  seeding at the store: ${fmt((performance.now() - t) / 1000)} s (not part of the figure)`);
  t = performance.now();
  const job = await call('POST', '/deleteEventsJobs', { filter: { typeId } });
  let state = job.body?.state;
  let details: unknown;
  while (!['FINISHED', 'FINISHED_WITH_ERROR'].includes(state)) {
    await new Promise((r) => setTimeout(r, 20));
    const s = await call('GET', `/deleteEventsJobs/${job.body.id}`);
    state = s.body?.state;
    details = s.body?.details;
  }
  line(`  job ${state} in ${fmt((performance.now() - t) / 1000, 2)} s: ${JSON.stringify(details)}`);
  line(`  events of the type left: ${store.eventCount(typeId, full.hostTenant)}`);
}

// 2. GET /events with a filter at 100,000 stored events.
{
  const typeId = await eventType('benchquery');
  seed(typeId, 100_000);
  const filter = encodeURIComponent(JSON.stringify({ typeId, reading: { in: { value: [1, 2, 3] } } }));
  const path = `/events?size=20&filter=${filter}`;
  for (let i = 0; i < 20; i++) await call('GET', path);
  const times: number[] = [];
  for (let i = 0; i < (quick ? 100 : 400); i++) {
    const t = performance.now();
    const res = await call('GET', path);
    times.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`query: HTTP ${res.status}`);
  }
  line(`\n## GET /events with a filter at 100,000 stored events of the type (target p99 ≤ 20 ms)`);
  line(
    `  ${times.length} sequential queries: p50 ${fmt(percentile(times, 50), 2)} ms, p99 ${fmt(percentile(times, 99), 2)} ms, max ${fmt(Math.max(...times), 2)} ms`,
  );
}

// 3. Loopback throughput of GET /events/{id} from a second process.
{
  const created = await call('POST', '/events', { entityId, timestamp: new Date().toISOString(), severity: 5 });
  const url = `${ref.baseUrl}${EM}/events/${created.body.id}`;
  const dir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  const script = join(dir, 'load.mjs');
  writeFileSync(
    script,
    `
import { Agent, request } from ${JSON.stringify(new URL('../node_modules/undici/index.js', import.meta.url).href)};
const [url, auth, seconds, conns] = process.argv.slice(2);
const agent = new Agent({ connections: Number(conns), pipelining: 1 });
const until = Date.now() + Number(seconds) * 1000;
let ok = 0, bad = 0;
await Promise.all(Array.from({ length: Number(conns) }, async () => {
  while (Date.now() < until) {
    const res = await request(url, { headers: { authorization: auth }, dispatcher: agent });
    await res.body.dump();
    if (res.statusCode === 200) ok++; else bad++;
  }
}));
process.stdout.write(JSON.stringify({ ok, bad, rps: ok / Number(seconds) }));
await agent.close();
`,
  );
  const runs: number[] = [];
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const out = await new Promise<string>((resolve) => {
      const child = spawn(process.execPath, [script, url, auth, quick ? '2' : '5', '16'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let s = '';
      child.stdout.on('data', (d) => (s += d));
      child.on('close', () => resolve(s));
    });
    const r = JSON.parse(out) as { ok: number; bad: number; rps: number };
    if (r.bad) line(`  note: ${r.bad} answers were not 200`);
    runs.push(r.rps);
  }
  line(`\n## Loopback throughput of GET /events/{id} from a second process, 16 connections (target ≥ 3,000 req/s)`);
  line(`  ${fmtSpread(runs, 'req/s', 0)}`);
}

await ref.close();
