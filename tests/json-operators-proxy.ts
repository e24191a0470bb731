import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A deployment that speaks another filter grammar: a node:http proxy in front of the reference
 * that takes filters and sorts in MongoDB operators (the `json-operators` dialect), translates
 * them to the reference's grammar, and refuses the suite's default grammar with 400, as a
 * deployment written by someone else would. Everything else passes through untouched.
 */
export interface JsonOperatorsProxy {
  url: string;
  close(): Promise<void>;
}

const EM = '/api/eventmanagement/v3';

class Refused extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** One field's condition: a literal, or an object of `$` operators. */
function condition(field: string, v: unknown): unknown {
  if (!isObject(v)) return v;
  const out: Json = {};
  let from: unknown;
  for (const [op, arg] of Object.entries(v)) {
    if (!op.startsWith('$')) throw new Refused(`unknown operator "${op}" on ${field} (operators start with $)`);
    if (op === '$ne') out.not = arg;
    else if (op === '$in') {
      if (!Array.isArray(arg)) throw new Refused(`$in on ${field} takes an array`);
      out.in = { value: arg };
    } else if (op === '$gt') out.after = arg;
    else if (op === '$lt') out.before = arg;
    else if (op === '$gte') from = arg;
    else if (op === '$regex' && typeof arg === 'string' && /^\^/.test(arg))
      out.startsWith = arg.slice(1).replace(/\\(.)/g, '$1');
    else throw new Refused(`operator ${op} on ${field} is not supported`);
  }
  if (from !== undefined) {
    if (out.before === undefined) throw new Refused(`$gte on ${field} needs $lt`);
    if (typeof from !== 'string' || typeof out.before !== 'string')
      throw new Refused(`$gte and $lt on ${field} take timestamps`);
    out.between = `[${from},${out.before})`;
    delete out.before;
  }
  return out;
}

/** A MongoDB-style filter in the reference's grammar. */
export function translateFilter(f: unknown): Json {
  if (!isObject(f)) throw new Refused('filter must be a JSON object');
  const out: Json = {};
  for (const [k, v] of Object.entries(f)) {
    if (k === '$and' || k === '$or') {
      if (!Array.isArray(v)) throw new Refused(`${k} takes an array`);
      out[k.slice(1)] = v.map(translateFilter);
    } else if (k === 'and' || k === 'or' || k === 'not') throw new Refused(`${k} is no field (use $${k})`);
    else out[k] = condition(k, v);
  }
  return out;
}

/** `{"field": 1 | -1}` as the reference's `field,asc|desc`. */
export function translateSort(text: string): string {
  let s: unknown;
  try {
    s = JSON.parse(text);
  } catch {
    throw new Refused('sort is not JSON');
  }
  const entries = isObject(s) ? Object.entries(s) : [];
  if (entries.length !== 1 || (entries[0][1] !== 1 && entries[0][1] !== -1))
    throw new Refused('sort takes {"field": 1 | -1}');
  return `${entries[0][0]},${entries[0][1] === 1 ? 'asc' : 'desc'}`;
}

function refuse(res: ServerResponse, why: string): void {
  res.writeHead(400, { 'content-type': 'application/vnd.error+json' });
  res.end(JSON.stringify([{ logref: randomUUID(), message: why }]));
}

/** Starts the proxy in front of `target` (the reference's base URL). */
export async function startJsonOperatorsProxy(target: string): Promise<JsonOperatorsProxy> {
  const upstream = new URL(target);
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://proxy');
      try {
        if (req.method === 'GET' && (url.pathname === `${EM}/events` || url.pathname === `${EM}/eventTypes`)) {
          const filter = url.searchParams.get('filter');
          if (filter !== null) {
            let parsed: unknown;
            try {
              parsed = JSON.parse(filter);
            } catch {
              parsed = undefined;
            }
            // Text that is no JSON object goes through: the filter-json rules are the reference's to answer.
            if (isObject(parsed)) url.searchParams.set('filter', JSON.stringify(translateFilter(parsed)));
          }
          const sort = url.searchParams.get('sort');
          if (sort !== null) url.searchParams.set('sort', translateSort(sort));
        }
        if (req.method === 'POST' && url.pathname === `${EM}/deleteEventsJobs` && body.length) {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body.toString('utf8'));
          } catch {
            parsed = undefined;
          }
          if (isObject(parsed) && isObject(parsed.filter)) {
            body = Buffer.from(JSON.stringify({ ...parsed, filter: translateFilter(parsed.filter) }));
          }
        }
      } catch (e) {
        if (e instanceof Refused) return refuse(res, e.message);
        throw e;
      }
      const headers: Record<string, string | string[] | undefined> = { ...req.headers };
      if (body.length || req.headers['content-length']) headers['content-length'] = String(body.length);
      const out = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      out.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
