import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { referenceRunConfig } from '../cli/reference-config.ts';
import { useReference } from '../fixtures/reference/test-support.ts';
import { census } from './resource-census.ts';
import { tempDir } from './temp-dir.ts';
import { runCli } from './run-cli.ts';

const reference = useReference();
let auth = '';
const N = '/api/notification/v3';

beforeAll(async () => {
  auth = await reference.bearer();
});

async function post(path: string, json: unknown): Promise<unknown> {
  const res = await fetch(`${reference.baseUrl()}${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return res.json();
}

describe('leftovers of a crashed run', () => {
  it('are swept at the start of the next run, and nothing else is touched', async () => {
    const before = await census(reference.baseUrl(), auth);
    // What a run that crashed two hours ago would have left: its prefix carries its start time.
    const old = `cfz${(Date.now() - 2 * 3600_000).toString(36)}beef`;
    const recent = `cfz${(Date.now() - 60_000).toString(36)}cafe`;
    const recipient = await post(`${N}/recipient/`, {
      recipientname: 'Leftover Recipient',
      recipientdetail: [{ address: `${old}_to@example.com`, addresstypeid: 1 }],
    });
    await post(`${N}/communicationcategories/`, {
      from: `${old}app`,
      msgCategoryName: `${old}cat`,
      priority: 3,
      subject: 'Leftover',
      recipients: [{ position: 'TO', recipientId: recipient }],
      templates: [],
    });
    await post(`${N}/communicationcategories/`, {
      from: `${recent}app`,
      msgCategoryName: `${recent}cat`,
      priority: 3,
      subject: 'Recent',
      recipients: [],
      templates: [],
    });
    const during = await census(reference.baseUrl(), auth);
    expect(during.recipients).toBe(before.recipients + 1);
    expect(during.categories).toBe(before.categories + 2);

    const dir = tempDir('leftovers');
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(reference.ref(), reference.baseUrl())));
    const res = await runCli(
      [
        'run',
        '--config',
        config,
        '--service',
        'notification',
        '--rule',
        'notification/lookups/*',
        '--report-dir',
        join(dir, 'r'),
      ],
      { timeoutMs: 120_000 },
    );
    expect(res.code, res.stdout.slice(-1500)).toBe(0);
    const after = await census(reference.baseUrl(), auth);
    // The old run's recipient and category are gone; the recent run's category (a run that may
    // still be going on) is left alone.
    expect(after.recipients).toBe(before.recipients);
    expect(after.categories).toBe(before.categories + 1);
  }, 130_000);

  it('of event management (event types, their events, marked standard events) are swept too', async () => {
    const EM = '/api/eventmanagement/v3';
    const old = `cfz${(Date.now() - 3 * 3600_000).toString(36)}d00d`;
    const entityId = (reference.ref().fixtures.eventManagement as { entityIds: string[] }).entityIds[0];
    const type = (await post(`${EM}/eventTypes`, {
      name: `${old} type`,
      fields: [{ name: 'level', type: 'INTEGER' }],
    })) as { id: string };
    await post(`${EM}/events`, { typeId: type.id, entityId, timestamp: new Date().toISOString(), level: 1 });
    await post(`${EM}/events`, { entityId, timestamp: new Date().toISOString(), source: old, severity: 3 });
    const before = await census(reference.baseUrl(), auth);
    expect(before.standardEvents).toBeGreaterThan(0);

    const dir = tempDir('leftovers');
    const config = join(dir, 'run.json');
    writeFileSync(config, JSON.stringify(referenceRunConfig(reference.ref(), reference.baseUrl())));
    const res = await runCli(
      [
        'run',
        '--config',
        config,
        '--service',
        'event-management',
        '--rule',
        'event-management/general/base-path',
        '--report-dir',
        join(dir, 'r'),
      ],
      { timeoutMs: 120_000 },
    );
    expect(res.code, res.stdout.slice(-1500)).toBe(0);
    const after = await census(reference.baseUrl(), auth);
    expect(after.eventTypes).toBe(before.eventTypes - 1);
    expect(after.standardEvents).toBe(before.standardEvents - 1);
    const gone = await fetch(`${reference.baseUrl()}${EM}/eventTypes/${encodeURIComponent(type.id)}`, {
      headers: { authorization: auth },
    });
    expect(gone.status).toBe(404);
  }, 130_000);
});
