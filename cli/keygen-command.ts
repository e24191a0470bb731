import { existsSync, mkdirSync } from 'node:fs';
import { writeOutputFile } from '../suites/engine/safe-write.ts';
import { join, resolve } from 'node:path';
import { generateSigningKey } from '../certification/signing-key.ts';
import { UsageError } from './usage-error.ts';

/** `conformance keygen`: an Ed25519 key pair for signing bundles (private JWK, public JWK and its thumbprint). */
export async function keygenCommand(opts: { out: string; name: string }): Promise<number> {
  const dir = resolve(opts.out);
  const privateFile = join(dir, `${opts.name}.private.jwk`);
  const publicFile = join(dir, `${opts.name}.public.jwk`);
  for (const f of [privateFile, publicFile])
    if (existsSync(f)) throw new UsageError(`${f} exists; keygen never overwrites a key`);
  const key = await generateSigningKey();
  mkdirSync(dir, { recursive: true });
  writeOutputFile(privateFile, `${JSON.stringify(key.privateJwk, null, 2)}\n`, 0o600);
  writeOutputFile(publicFile, `${JSON.stringify({ ...key.publicJwk, kid: key.thumbprint }, null, 2)}\n`);
  process.stdout.write(
    `private key: ${privateFile} (keep it secret: certify --key signs with it)\npublic key:  ${publicFile} (publish it: verify --key checks bundles with it)\nthumbprint:  ${key.thumbprint}\n`,
  );
  return 0;
}
