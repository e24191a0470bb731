import { INPUT_BOUNDS, readBoundedFile, UntrustedInputError } from '../reporters/untrusted-input.ts';
import {
  calculateJwkThumbprint,
  CompactSign,
  compactVerify,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
} from 'jose';

/** JWS algorithm of bundle signatures: EdDSA over Ed25519 (RFC 8037). */
export const SIGNING_ALG = 'EdDSA';

export interface KeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
  /** RFC 7638 thumbprint (SHA-256) of the public key. */
  thumbprint: string;
}

/** The public part of an OKP/Ed25519 JWK. */
export function publicPart(jwk: JWK): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x };
}

/** The RFC 7638 SHA-256 thumbprint of a key's public part. */
export function thumbprint(jwk: JWK): Promise<string> {
  return calculateJwkThumbprint(publicPart(jwk), 'sha256');
}

/** A fresh Ed25519 key pair. */
export async function generateSigningKey(): Promise<KeyPair> {
  const { privateKey } = await generateKeyPair('Ed25519', { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const publicJwk = publicPart(privateJwk);
  return { privateJwk, publicJwk, thumbprint: await thumbprint(publicJwk) };
}

function assertEd25519(jwk: JWK, file: string, needPrivate: boolean): void {
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string')
    throw new Error(`${file}: not an Ed25519 JWK (kty OKP, crv Ed25519)`);
  if (needPrivate && typeof jwk.d !== 'string')
    throw new Error(`${file}: a public key; signing needs the private JWK that \`conformance keygen\` writes`);
}

/** Reads a JWK file; `needPrivate` demands the private part. */
export async function readKeyFile(file: string, needPrivate: boolean): Promise<KeyPair> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(readBoundedFile(file, 'a key file', INPUT_BOUNDS.key).toString('utf8')) as JWK;
  } catch (e) {
    if (e instanceof UntrustedInputError) throw e; // names the file already
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
  if (!jwk || typeof jwk !== 'object') throw new Error(`${file}: not a JWK`);
  assertEd25519(jwk, file, needPrivate);
  const publicJwk = publicPart(jwk);
  return { privateJwk: jwk, publicJwk, thumbprint: await thumbprint(publicJwk) };
}

/** A compact JWS whose payload is exactly `payload`, signed with the key pair; the header names the key. */
export async function signPayload(payload: Buffer, key: KeyPair): Promise<string> {
  const k = await importJWK(key.privateJwk, SIGNING_ALG);
  return new CompactSign(payload)
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.thumbprint, jwk: key.publicJwk, cty: 'json' })
    .sign(k);
}

/**
 * Verifies a compact JWS with `publicJwk`, written as `signPayload` writes it (one line, ending in a
 * newline, each part in canonical base64url); returns its payload, or throws saying why. A byte
 * of the file changed (trailing space, another line end, a signature's unused low bits) is refused
 * even where the signature would still verify: a bundle proves that nothing in it changed.
 */
export async function verifyPayload(file: string, publicJwk: JWK): Promise<Buffer> {
  const jws = file.endsWith('\n') ? file.slice(0, -1) : file;
  const parts = jws.split('.');
  if (
    parts.length !== 3 ||
    !parts.every((p) => /^[A-Za-z0-9_-]*$/.test(p) && Buffer.from(p, 'base64url').toString('base64url') === p)
  )
    throw new Error('not one compact JWS line in canonical base64url, as this tool writes it');
  const k = await importJWK(publicPart(publicJwk), SIGNING_ALG);
  const { payload } = await compactVerify(jws, k, { algorithms: [SIGNING_ALG] });
  return Buffer.from(payload);
}
