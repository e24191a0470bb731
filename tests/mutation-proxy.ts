import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every way the proxy spoils an answer, each one a thing a broken deployment does. */
export const MUTATIONS = [
  'status-swapped',
  'content-type-changed',
  'field-retyped',
  'field-random-string',
  'enum-replaced',
  'link-self-referential',
  'header-dropped',
  'body-truncated',
] as const;

export type Mutation = (typeof MUTATIONS)[number];

/** An answer as the proxy holds it before passing it on. */
export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface MutationProxyOptions {
  /** The deployment behind the proxy. */
  upstream: string;
  /** Seed of the choices: which answers are spoiled and how. */
  seed?: number;
  /** Share of the answers spoiled (0..1). */
  share?: number;
  /** Added to every request before it is passed on (ms). */
  delayMs?: number;
  /** Requests never answered (a hanging operation). */
  hold?: (method: string, path: string) => boolean;
  /** Requests whose connection is reset, by their number (from 1): a network blip. */
  reset?: (n: number) => boolean;
  /** A fixed rewrite of answers instead of (or besides) the random mutations. */
  rewrite?: (method: string, path: string, answer: ProxiedAnswer) => ProxiedAnswer;
}

export interface MutationProxy {
  url: string;
  /** How many answers each mutation spoiled, and how many went through untouched. */
  counts: Record<string, number>;
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so that a seed names one sequence of choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Json = unknown;

/** Every path to a value inside a JSON document (objects and arrays), depth-first. */
function paths(v: Json, at: Array<string | number> = [], out: Array<Array<string | number>> = []) {
  if (out.length > 2000) return out;
  const children: Array<[string | number, Json]> = Array.isArray(v)
    ? v.map((x, i) => [i, x])
    : v && typeof v === 'object'
      ? Object.entries(v)
      : [];
  for (const [k, x] of children) {
    out.push([...at, k]);
    paths(x, [...at, k], out);
  }
  return out;
}

function setAt(root: Json, path: Array<string | number>, value: Json): Json {
  if (!path.length) return value;
  let node = root as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, Json>;
  node[path[path.length - 1]] = value;
  return root;
}

function getAt(root: Json, path: Array<string | number>): Json {
  let node = root as Record<string | number, Json> | undefined;
  for (const k of path) node = node?.[k] as Record<string | number, Json> | undefined;
  return node;
}

/** Spoils one answer in the way `m` names; returns it unchanged when the mutation does not apply. */
export function mutate(m: Mutation, answer: ProxiedAnswer, rnd: () => number): ProxiedAnswer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const headers = { ...answer.headers };
  let json: Json;
  try {
    json = answer.body.length ? JSON.parse(answer.body.toString('utf8')) : undefined;
  } catch {
    json = undefined;
  }
  const withJson = (j: Json): ProxiedAnswer => {
    const body = Buffer.from(JSON.stringify(j));
    return { ...answer, headers: { ...headers, 'content-length': String(body.length) }, body };
  };
  switch (m) {
    case 'status-swapped': {
      const others = [200, 201, 202, 204, 400, 401, 403, 404, 409, 412, 500].filter((s) => s !== answer.status);
      return { ...answer, status: pick(others) };
    }
    case 'content-type-changed':
      return {
        ...answer,
        headers: { ...headers, 'content-type': pick(['text/plain', 'text/html', 'application/xml']) },
      };
    case 'field-retyped':
    case 'field-random-string': {
      const all = paths(json);
      if (!all.length) return answer;
      const path = pick(all);
      const old = getAt(json, path);
      const replacement =
        m === 'field-random-string'
          ? Math.floor(rnd() * 36 ** 6).toString(36)
          : pick([null, 42, -1.5, true, 'x', [], {}, [1, 'a'], { a: 1 }].filter((x) => typeof x !== typeof old));
      return withJson(setAt(json, path, replacement));
    }
    case 'enum-replaced': {
      const enums = paths(json).filter((p) => {
        const v = getAt(json, p);
        return typeof v === 'string' && /^[A-Z][A-Z_]{2,}$/.test(v);
      });
      if (!enums.length) return answer;
      return withJson(setAt(json, pick(enums), pick(['COMPLETED', 'UNKNOWN', 'DONE', 'pending'])));
    }
    case 'link-self-referential': {
      const links = paths(json).filter((p) => p[p.length - 1] === 'href' && typeof getAt(json, p) === 'string');
      const self = links.find((p) => p[p.length - 2] === 'self');
      if (!links.length || !self) return answer;
      const selfHref = getAt(json, self);
      for (const p of links) setAt(json, p, selfHref);
      return withJson(json);
    }
    case 'header-dropped': {
      const names = Object.keys(headers).filter((h) =>
        ['content-type', 'etag', 'location', 'retry-after', 'content-location'].includes(h),
      );
      if (!names.length) return answer;
      delete headers[pick(names)];
      return { ...answer, headers };
    }
    case 'body-truncated': {
      if (answer.body.length < 2) return answer;
      const body = answer.body.subarray(0, Math.floor(answer.body.length * (0.2 + rnd() * 0.6)));
      return { ...answer, headers: { ...headers, 'content-length': String(body.length) }, body };
    }
  }
}

/**
 * A proxy in front of a deployment that, per seed, spoils a share of its answers (status,
 * content type, a field's type or value, an enum value, links, a header, a truncated body), or
 * only delays every request: a conformant deployment behind a slow network.
 */
export async function startMutationProxy(opts: MutationProxyOptions): Promise<MutationProxy> {
  const upstream = new URL(opts.upstream);
  const rnd = random(opts.seed ?? 1);
  const share = opts.share ?? 0;
  const counts: Record<string, number> = { untouched: 0 };
  let n = 0;
  const server: Server = createServer((req, res) => {
    if (opts.reset?.(++n)) {
      counts.reset = (counts.reset ?? 0) + 1;
      req.socket.destroy();
      return;
    }
    if (opts.hold?.(req.method ?? 'GET', req.url ?? '/')) {
      counts.held = (counts.held ?? 0) + 1;
      req.resume();
      return;
    }
    const forward = () => {
      const up = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (c: Buffer) => chunks.push(c));
          answer.on('error', () => res.destroy());
          answer.on('end', () => {
            let out: ProxiedAnswer = {
              status: answer.statusCode ?? 502,
              headers: answer.headers,
              body: Buffer.concat(chunks),
            };
            if (opts.rewrite) out = opts.rewrite(req.method ?? 'GET', req.url ?? '/', out);
            if (share > 0 && rnd() < share) {
              const m = MUTATIONS[Math.floor(rnd() * MUTATIONS.length)];
              const spoiled = mutate(m, out, rnd);
              counts[spoiled === out ? 'untouched' : m] = (counts[spoiled === out ? 'untouched' : m] ?? 0) + 1;
              out = spoiled;
            } else counts.untouched++;
            const headers = { ...out.headers };
            delete headers['transfer-encoding'];
            // Every answer announces the length it has (a truncated body is short JSON, not a broken connection).
            const empty = out.status === 204 || out.status === 304 || req.method === 'HEAD';
            headers['content-length'] = String(empty ? 0 : out.body.length);
            res.writeHead(out.status, headers);
            res.end(empty ? undefined : out.body);
          });
        },
      );
      up.on('error', () => res.destroy());
      req.pipe(up);
    };
    if (opts.delayMs) setTimeout(forward, opts.delayMs);
    else forward();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
