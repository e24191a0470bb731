import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigningKey } from './signing-key.ts';
import { verifyBundle } from './verify-bundle.ts';
import { writeBundle } from './write-bundle.ts';
import { tempDir } from '../tests/temp-dir.ts';

const tool = { name: 'platform-conformance', version: '0.1.0' };

async function smallBundle(extra: Record<string, string> = {}): Promise<string> {
  const dir = join(tempDir('verify'), 'b');
  mkdirSync(dir);
  const report = {
    tool,
    target: 'http://x',
    seed: 1,
    startedAt: '2026-11-21T00:00:00.000Z',
    finishedAt: '2026-11-21T00:00:01.000Z',
    options: {},
    rules: [],
    verdict: 'passed',
    errors: [],
  };
  writeFileSync(join(dir, 'conformance-report.json'), JSON.stringify(report));
  for (const f of ['junit.xml', 'report.html']) writeFileSync(join(dir, f), f);
  for (const [f, content] of Object.entries(extra)) writeFileSync(join(dir, f), content);
  await writeBundle(
    dir,
    { vendor: 'v', product: 'p', productVersion: '1', services: ['notification'] },
    { ...(await generateSigningKey()), origin: 'ephemeral' },
  );
  return dir;
}

describe('verify on malformed bundles', () => {
  it('names a manifest of the wrong shape instead of failing on it', async () => {
    const dir = await smallBundle();
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ services: 'notification', files: [] }));
    const v = await verifyBundle(dir, { tool });
    expect(v.reasons).toContain('manifest.jws signs another manifest than manifest.json');
    expect(v.reasons.find((r) => r.startsWith('manifest.json is not a certification manifest'))).toMatch(
      /services missing or of the wrong type/,
    );
  });

  // The signature would still verify; the file is not the one signed: a bundle proves nothing in it changed.
  it.each([
    ['a space after the line', (jws: string) => `${jws.trimEnd()} \n`],
    ['another line end', (jws: string) => `${jws.trimEnd()}\r\n`],
    ['a second newline', (jws: string) => `${jws}\n`],
    [
      "the signature's unused low bits set",
      (jws: string) => {
        const last = jws.trimEnd().slice(-1);
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        return `${jws.trimEnd().slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}\n`;
      },
    ],
  ])('refuses manifest.jws with %s', async (_, change) => {
    const dir = await smallBundle();
    const file = join(dir, 'manifest.jws');
    const before = await verifyBundle(dir, { tool });
    expect(before.reasons.filter((r) => r.includes('signature'))).toEqual([]);
    writeFileSync(file, change(readFileSync(file, 'utf8')));
    const v = await verifyBundle(dir, { tool });
    expect(v.reasons.find((r) => r.startsWith('the signature of manifest.json does not verify'))).toMatch(
      /canonical base64url/,
    );
  });

  it('names a missing signature, key and manifest', async () => {
    const dir = join(tempDir('verify'), 'empty');
    mkdirSync(dir);
    const v = await verifyBundle(dir, { tool });
    expect(v.reasons).toEqual([
      'manifest.json is missing',
      'manifest.jws (the manifest’s signature) is missing'.replace('’', "'"),
      'public-key.jwk is missing',
    ]);
  });

  it('refuses a signed bundle whose HAR is not a HAR 1.2 log', async () => {
    const dir = await smallBundle({
      'exchanges.har': JSON.stringify({ log: { version: '1.2', creator: { name: 'x', version: '1' }, entries: [{}] } }),
    });
    const v = await verifyBundle(dir, { tool });
    expect(v.reasons.find((r) => r.startsWith('exchanges.har is not a HAR 1.2 log: '))).toMatch(
      /\/log\/entries\/0 must have required property 'startedDateTime'/,
    );
    expect(v.reasons.some((r) => r.startsWith('exchanges.har was changed'))).toBe(false);
  });

  it('refuses the profile of a run that judged nothing', async () => {
    const dir = await smallBundle();
    const v = await verifyBundle(dir, { tool });
    expect(v.reasons.some((r) => r.startsWith('profile incomplete: the run used undefined runs per property'))).toBe(
      true,
    );
    expect(v.reasons).toContain('profile incomplete: claimed services not run: notification');
  });
});
