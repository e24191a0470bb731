import { existsSync } from 'node:fs';
import { SERVICE_INFO } from '../contracts/services.ts';
import { forTerminalLine as t } from '../reporters/untrusted-text.ts';
import { readKeyFile } from '../certification/signing-key.ts';
import { verifyBundle } from '../certification/verify-bundle.ts';
import { toolVersion } from './tool-version.ts';
import { UsageError } from './usage-error.ts';

/** `conformance verify BUNDLE`: checks a bundle offline; 0 with a summary when valid, 1 naming every reason when not. */
export async function verifyCommand(bundle: string, opts: { key?: string }): Promise<number> {
  let key;
  if (opts.key) {
    try {
      key = (await readKeyFile(opts.key, false)).publicJwk;
    } catch (e) {
      throw new UsageError(`--key ${(e as Error).message}`);
    }
  }
  if (!existsSync(bundle)) throw new UsageError(`${bundle}: no such file or directory`);
  let result;
  try {
    result = await verifyBundle(bundle, { key, tool: { name: 'platform-conformance', version: toolVersion() } });
  } catch (e) {
    // An archive that cannot be read is refused like any other damage.
    result = { reasons: [(e as Error).message], checked: [] };
  }
  const m = result.manifest;
  const out: string[] = [];
  if (m) {
    out.push(
      `bundle of ${t(m.vendor)} ${t(m.product)} ${t(m.productVersion)}, ${t(String(m.finishedAt).slice(0, 10))}`,
    );
    out.push(
      `  services: ${t((Array.isArray(m.services) ? m.services : []).map((s) => (Object.hasOwn(SERVICE_INFO, s) ? SERVICE_INFO[s].title : s)).join(', '))}`,
    );
    out.push(`  certificate says: ${t(String(m.verdict).toUpperCase())}`);
    for (const s of Array.isArray(m.services) ? m.services : []) {
      const c = (Object.hasOwn(m.counts ?? {}, s) ? m.counts[s] : undefined) ?? {};
      out.push(
        `    ${t(s)}: ${t(
          Object.entries(c)
            .map(([k, v]) => `${String(v)} ${k}`)
            .join(', '),
        )}`,
      );
    }
    out.push(`  bundle hash: ${t(m.bundleHash)}`);
    out.push(`  key: ${t(m.key?.thumbprint)}${m.key?.origin === 'ephemeral' ? ' (made for this bundle only)' : ''}`);
  }
  if (result.reasons.length) {
    out.push('', `REFUSED: ${result.reasons.length} reason${result.reasons.length === 1 ? '' : 's'}`);
    for (const r of result.reasons) out.push(`  ✗ ${t(r)}`);
    process.stdout.write(`${out.join('\n')}\n`);
    return 1;
  }
  out.push('', 'VALID: the bundle is authentic and its verdict follows from its evidence');
  for (const c of result.checked) out.push(`  ✓ ${t(c)}`);
  if (!opts.key)
    out.push("  ! the signer was not checked against a known key: pass --key PUBLIC.jwk (the vendor's published key)");
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}
