import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A deployment that echoes every credential it receives, and what it handed out. */
export interface EchoTarget {
  url: string;
  /** Every token the token endpoint answered with (as the client saw it), in the order issued. */
  issuedTokens: Set<string>;
  /** Requests forwarded. */
  requests: number;
  close(): Promise<void>;
}

export interface EchoTargetOptions {
  /** Where the requests go (a running reference deployment). */
  upstream: string;
  /**
   * Hand the client an opaque random token in place of each JWT the upstream issues (and swap it
   * back on the way in): redaction then rests on the registered secrets, not on a JWT's shape.
   */
  opaqueTokens?: boolean;
}

/** Most of a request body that is echoed back (uploads may be megabytes). */
const ECHOED_BODY = 4096;

function bareKey(key: string | undefined): string | undefined {
  return key?.replace(/^\s*Basic\s+/i, '');
}

function bareToken(authorization: string | undefined): string | undefined {
  return authorization?.replace(/^\s*Bearer\s+/i, '');
}

/** Every form a credential of one request can take in the echo: as sent, bare, unpadded, url-safe. */
function credentialForms(headers: IncomingHttpHeaders): Record<string, string> {
  const forms: Record<string, string> = {};
  const key = bareKey(headers['x-space-auth-key'] as string | undefined);
  if (key) {
    forms['key-bare'] = key;
    forms['key-unpadded'] = key.replace(/=+$/, '');
    forms['key-url'] = key.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }
  const token = bareToken(headers.authorization);
  if (token) forms['token-bare'] = token;
  return forms;
}

/** A header value with what a header cannot carry (control characters) dropped. */
function headerSafe(v: string): string {
  // eslint-disable-next-line no-control-regex
  return v.replace(/[\u0000-\u001f\u007f-\uffff]/g, '');
}

/**
 * A proxy in front of `upstream` that echoes, into every answer, each request header as an
 * `x-echo-<name>` response header, the credentials bare (and unpadded, url-safe) in more headers,
 * in `Location`, `Content-Location`, `Content-Type` parameters, `Set-Cookie` and
 * `WWW-Authenticate`, and the request's headers and body in the answer's body (a field of a JSON
 * object, an element of a JSON array, text appended to anything else).
 */
export async function startEchoTarget(opts: EchoTargetOptions): Promise<EchoTarget> {
  const upstream = new URL(opts.upstream);
  const issuedTokens = new Set<string>();
  const opaqueToReal = new Map<string, string>();
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      const body = Buffer.concat(chunks);
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
      delete headers['accept-encoding'];
      const sentToken = bareToken(req.headers.authorization);
      if (sentToken && opaqueToReal.has(sentToken)) headers.authorization = `Bearer ${opaqueToReal.get(sentToken)}`;
      const up = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers },
        (upRes) => {
          const got: Buffer[] = [];
          upRes.on('data', (c: Buffer) => got.push(c));
          upRes.on('end', () => answer(upRes.statusCode ?? 502, upRes.headers, Buffer.concat(got)));
          upRes.on('error', () => res.destroy());
        },
      );
      up.on('error', () => res.destroy());
      up.end(body);

      function answer(status: number, upHeaders: IncomingHttpHeaders, upBody: Buffer): void {
        let text = upBody.toString('utf8');
        const type = String(upHeaders['content-type'] ?? '');
        let json: unknown;
        if (/json/i.test(type)) {
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
        }
        // The token endpoint's answer: its tokens are what the outputs are searched for.
        if (req.url?.includes('/oauth/token') && json && typeof json === 'object' && !Array.isArray(json)) {
          const o = json as Record<string, unknown>;
          for (const [k, v] of Object.entries(o)) {
            if (!/token$/i.test(k) || typeof v !== 'string' || k === 'token_type') continue;
            let handed = v;
            if (opts.opaqueTokens) {
              handed = randomBytes(32).toString('base64url');
              opaqueToReal.set(handed, v);
            }
            o[k] = handed;
            issuedTokens.add(handed);
          }
        }
        const forms = credentialForms(req.headers);
        const echo = {
          headers: req.headers,
          credentials: forms,
          body: body.subarray(0, ECHOED_BODY).toString('utf8'),
        };
        const noBody = req.method === 'HEAD' || status === 204 || status === 304;
        if (!noBody) {
          if (json && typeof json === 'object') {
            if (Array.isArray(json)) json.push({ echo });
            else (json as Record<string, unknown>).echo = echo;
            text = JSON.stringify(json);
          } else text = `${text}\n${JSON.stringify({ echo })}`;
        }
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(upHeaders)) {
          if (v === undefined || ['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(k))
            continue;
          out[k] = v;
        }
        for (const [k, v] of Object.entries(req.headers)) {
          if (typeof v === 'string') out[`x-echo-${k}`] = headerSafe(v);
        }
        for (const [k, v] of Object.entries(forms)) out[`x-echo-${k}`] = headerSafe(v);
        const token = forms['token-bare'] ?? '';
        const key = forms['key-bare'] ?? '';
        const creds = `authorization=${encodeURIComponent(req.headers.authorization ?? '')}&key=${encodeURIComponent(key)}&token=${token}`;
        // An upstream Location keeps where it points; the credentials ride in its fragment.
        out.location = out.location ? `${String(out.location)}#${creds}` : `${opts.upstream}/echo/${token}?${creds}`;
        out['content-location'] = `/echo/${key}/${token}?${creds}`;
        if (!noBody)
          out['content-type'] =
            `${type || 'text/plain'}; echo-token="${token}"; echo-key="${key}"; echo-authorization="${headerSafe(req.headers.authorization ?? '')}"`;
        out['set-cookie'] = [`echo-token=${token}; Path=/`, `echo-key=${key}; Path=/`];
        out['www-authenticate'] = `Bearer realm="echo", error_description="${token} ${key}"`;
        if (!noBody) out['content-length'] = String(Buffer.byteLength(text));
        res.writeHead(status, out);
        res.end(noBody ? undefined : text);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    issuedTokens,
    get requests() {
      return state.requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
