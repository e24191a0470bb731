import { checkRegularFile, INPUT_BOUNDS } from '../reporters/untrusted-input.ts';
import { HttpClient, TransportError } from '../suites/engine/http-client.ts';
import type { RunConfig } from '../suites/engine/run-config.ts';
import { TokenError } from '../suites/engine/token-error.ts';
import { isClientSecret, spaceAuthKey, TokenProvider, type PrincipalName } from '../suites/engine/token-provider.ts';
import { PrincipalUnavailable } from '../suites/engine/unjudged.ts';
import { CONFIG_ENV, loadRunConfig } from './config-source.ts';
import { UnreachableError, UsageError } from './usage-error.ts';
import { writeUnguarded } from '../reporters/terminal.ts';

export interface TokenOptions {
  config?: string;
  target?: string;
  principal?: string;
  spaceAuthKey?: boolean;
  ca?: string;
  insecure?: boolean;
}

const NAMED = ['full', 'noScopes', 'otherTenant', 'operator', 'throttled'];

/**
 * `conformance token`: a bearer token of a principal of the configuration (or its X-SPACE-AUTH-KEY),
 * printed to stdout alone, for the `$CONFORMANCE_TOKEN` of a failure's curl. It is written nowhere else.
 */
export async function tokenCommand(opts: TokenOptions, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const source = loadRunConfig(opts.config, process.env, opts.target);
  if (!source) throw new UsageError(`token needs --config FILE (or ${CONFIG_ENV} holding the configuration)`);
  const config: RunConfig = source.config;
  if (opts.ca) checkRegularFile(opts.ca, 'a CA certificate file', INPUT_BOUNDS.certificate);
  const principal = (opts.principal ?? 'full') as PrincipalName;
  if (!NAMED.includes(principal) && !principal.startsWith('without:'))
    throw new UsageError(
      `--principal ${opts.principal}: one of ${NAMED.join(', ')} or without:SCOPE (a principal of principals.withoutScope)`,
    );
  const http = new HttpClient({
    target: config.target,
    timeoutMs: config.options?.timeout ?? 10_000,
    maxBodyBytes: 1024 * 1024,
    rate: 0,
    concurrency: 1,
    ca: opts.ca,
    insecure: !!opts.insecure,
    max429Retries: 3,
    maxRetryAfterMs: 10_000,
    breakAfter: 3,
  });
  try {
    const tokens = new TokenProvider(http, config);
    const p = tokens.principal(principal);
    if (!p) throw new UsageError(`the configuration has no principal ${principal}`);
    if (opts.spaceAuthKey) {
      if ('token' in p) throw new UsageError(`principal ${principal} is a static token: it has no X-SPACE-AUTH-KEY`);
      writeUnguarded(out, `${spaceAuthKey(p)}\n`);
      return 0;
    }
    let header: string;
    try {
      header = await tokens.authorization(principal);
    } catch (e) {
      // The configuration's slip or a target that does not answer (exit 3), never a defect of the tool.
      if (e instanceof PrincipalUnavailable || e instanceof TokenError)
        throw new UnreachableError(`no token for ${principal}: ${e.message}`);
      if (e instanceof TransportError) throw new UnreachableError(`no token for ${principal}: ${e.code}: ${e.message}`);
      throw e;
    }
    const token = header.replace(/^Bearer\s+/i, '');
    // Printed raw for `$(…)`: only a bearer token's characters (RFC 6750's b64token), never the
    // target's other text (control characters, a line that a CI log reads as a command), and never
    // a secret of the configuration the target gave back as its token.
    if (!/^[A-Za-z0-9._~+/-]+=*$/.test(token))
      throw new UnreachableError(
        `no token for ${principal}: the token endpoint's access_token (${token.length} characters) is not a bearer token (RFC 6750 characters only); not printed`,
      );
    if (isClientSecret(config, token))
      throw new UnreachableError(
        `no token for ${principal}: the token endpoint gave back a client secret of the configuration as the token; not printed`,
      );
    writeUnguarded(out, `${token}\n`);
    return 0;
  } finally {
    await http.close();
  }
}
