import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpClient,
  ReadOnlyRefusal,
  TransportError,
  retryAfterMs,
  uploadAllowanceMs,
  type Exchange,
} from './http-client.ts';

let server: Server;
let base = '';
let throttledOnce = 0;
/** The paths the server was asked for, in order. */
const asked: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    if (req.url === '/stall') return; // never answers
    if (req.url === '/huge') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
      return;
    }
    if (req.url === '/html') {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html>oops</html>');
      return;
    }
    if (req.url === '/throttle') {
      if (throttledOnce++ < 2) {
        res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' });
        res.end('{"errors":[]}');
        return;
      }
    }
    if (req.url === '/throttle-long') {
      res.writeHead(429, { 'retry-after': '3600', 'content-type': 'application/json' });
      res.end('{"errors":[]}');
      return;
    }
    if (req.url === '/reset') {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ url: req.url, method: req.method }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function client(over: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) {
  return new HttpClient({
    target: base,
    timeoutMs: 500,
    maxBodyBytes: 1024 * 1024,
    rate: 0,
    concurrency: 4,
    max429Retries: 5,
    maxRetryAfterMs: 1000,
    ...over,
  });
}

describe('HTTP client', () => {
  it('in read-only mode refuses, without sending, every request outside the read operations', async () => {
    const c = client({ readOnly: true });
    for (const [method, path] of [
      ['POST', '/api/notification/v3/publisher/messages'],
      ['POST', '/api/notification/v3/broadcastEmails'],
      ['PUT', '/api/notification/v3/certificatestore/a%40b.c'],
      ['DELETE', '/api/eventmanagement/v3/eventTypes/x'],
      ['PATCH', '/api/notification/v3/paramtype/'],
      ['POST', '/api/notification/v3/recipient/search/extra'],
    ]) {
      const err: unknown = await c.send({ method, path }).catch((e: unknown) => e);
      expect(err, `${method} ${path}`).toBeInstanceOf(ReadOnlyRefusal);
    }
    expect(c.stats.requests).toBe(0);
    for (const [method, path] of [
      ['GET', '/api/eventmanagement/v3/events'],
      ['POST', '/api/notification/v3/recipient/search'],
      ['POST', '/api/notification/v3/recipient/recipientgroup/search'],
      ['POST', '/api/notification/v3/audit/searchauditstatus'],
      ['POST', '/api/technicaltokenmanager/v3/oauth/token'],
      ['POST', '/api/technicaltokenmanager/v3/oauthTokens'],
    ])
      expect((await c.send({ method, path })).status, `${method} ${path}`).toBe(200);
    expect(c.stats.requests).toBe(6);
  });

  it('sends JSON and parses the answer, media type without parameters', async () => {
    const res = await client().send({ method: 'POST', path: '/x', query: { a: 1, b: undefined }, json: { k: 1 } });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(res.json).toEqual({ url: '/x?a=1', method: 'POST' });
  });

  it('turns a stalled target into a TIMEOUT transport error in bounded time', async () => {
    const started = Date.now();
    const err = await client()
      .send({ method: 'GET', path: '/stall' })
      .catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses bodies above the cap', async () => {
    const err = await client()
      .send({ method: 'GET', path: '/huge' })
      .catch((e) => e);
    expect((err as TransportError).code).toBe('BODY_TOO_LARGE');
  });

  it('keeps a non-JSON body as text with the parse error', async () => {
    const res = await client().send({ method: 'GET', path: '/html' });
    expect(res.status).toBe(500);
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toBeTruthy();
  });

  it('absorbs 429 by waiting as Retry-After says, and counts it', async () => {
    const c = client();
    const res = await c.send({ method: 'GET', path: '/throttle' });
    expect(res.status).toBe(200);
    expect(c.stats.throttled).toBe(2);
    expect(c.stats.retriedAfter429).toBe(2);
  });

  it('tells a reset connection (CONNECTION) from a refused one (REFUSED)', async () => {
    expect(
      (
        (await client()
          .send({ method: 'GET', path: '/reset' })
          .catch((e) => e)) as TransportError
      ).code,
    ).toBe('CONNECTION');
    const refused = new HttpClient({
      target: 'http://127.0.0.1:1',
      timeoutMs: 500,
      maxBodyBytes: 1024,
      rate: 0,
      concurrency: 1,
      max429Retries: 0,
      maxRetryAfterMs: 0,
    });
    expect(((await refused.send({ method: 'GET', path: '/' }).catch((e) => e)) as TransportError).code).toBe('REFUSED');
  });

  it('stops sending to a target that fails too many requests in a row', async () => {
    const c = client({ breakAfter: 3 });
    for (let i = 0; i < 3; i++) await c.send({ method: 'GET', path: '/reset' }).catch(() => undefined);
    const err = (await c.send({ method: 'GET', path: '/not-sent' }).catch((e) => e)) as TransportError;
    expect(err.code).toBe('UNRESPONSIVE');
    // Refused without a request: the target was not asked again.
    expect(asked).not.toContain('/not-sent');
  });

  it('takes a short blip and a target failing now and then, and says since when a steadily failing one is unresponsive', async () => {
    const c = client({ breakAfter: 8 });
    // A blip: seven resets in a row, then answers again.
    for (let i = 0; i < 7; i++) await c.send({ method: 'GET', path: '/reset' }).catch(() => undefined);
    for (let i = 0; i < 30; i++) await c.send({ method: 'GET', path: '/ok' });
    // One reset in ten requests, for a long while.
    for (let round = 0; round < 20; round++) {
      await c.send({ method: 'GET', path: '/reset' }).catch(() => undefined);
      for (let i = 0; i < 9; i++) await c.send({ method: 'GET', path: '/ok' });
    }
    expect(c.unresponsiveSince).toBeUndefined();
    expect((await c.send({ method: 'GET', path: '/ok' })).status).toBe(200);
    // One in three fails: the failures outweigh the answers.
    const before = Date.now();
    for (let round = 0; round < 40 && c.unresponsiveSince === undefined; round++) {
      await c.send({ method: 'GET', path: '/reset' }).catch(() => undefined);
      for (let i = 0; i < 2; i++) await c.send({ method: 'GET', path: '/ok' }).catch(() => undefined);
    }
    expect(c.unresponsiveSince).toBeGreaterThanOrEqual(before);
    const err = (await c.send({ method: 'GET', path: '/ok' }).catch((e) => e)) as TransportError;
    expect(err.code).toBe('UNRESPONSIVE');
    expect(err.message).toContain(`unresponsive since ${new Date(c.unresponsiveSince!).toISOString()}`);
  });

  it('caps the wait a Retry-After imposes, and how often it is obeyed', async () => {
    const c = client({ max429Retries: 2, maxRetryAfterMs: 100 });
    const started = performance.now();
    const res = await c.send({ method: 'GET', path: '/throttle-long' });
    // An hour asked for, three times: two capped waits, then the 429 goes to the caller.
    expect(res.status).toBe(429);
    expect(c.stats.retriedAfter429).toBe(2);
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('holds the rate limit', async () => {
    const c = client({ rate: 20 });
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, () => c.send({ method: 'GET', path: '/r' })));
    // 11 starts at 20/s: the last starts no earlier than 500 ms after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(480);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(undefined, 7)).toBe(7);
    expect(retryAfterMs(new Date(Date.now() + 5000).toUTCString())).toBeGreaterThan(3000);
  });

  it('gives a failure a curl that carries the whole body up to what the report keeps, and beyond it none, saying why', async () => {
    const events = Array.from({ length: 51 }, (_, i) => ({
      typeId: 'conformhost.type',
      timestamp: '2026-12-08T01:00:00.000Z',
      severity: 50,
      source: `s${i}`,
    }));
    const exchanges: Exchange[] = [];
    await client().send({ method: 'POST', path: '/jobs', json: { events } }, (e) => exchanges.push(e));
    const curl = exchanges[0].curl ?? '';
    expect(JSON.stringify({ events }).length).toBeGreaterThan(4096);
    // As the shell reads the last word: the body whole, valid JSON.
    const data = /--data-raw '(.*)'$/s.exec(curl)?.[1].split(`'\\''`).join("'");
    expect(JSON.parse(data ?? '')).toEqual({ events });
    expect(exchanges[0].noCurl).toBeUndefined();

    const long = { events: Array.from({ length: 200 }, () => events[0]) };
    await client().send({ method: 'POST', path: '/jobs', json: long }, (e) => exchanges.push(e));
    expect(exchanges[1].curl).toBeUndefined();
    expect(exchanges[1].noCurl).toBe(
      `its body is ${JSON.stringify(long).length} bytes, more than a report keeps of a request: a curl would send only a part`,
    );
  });

  it('gives a large upload a second per MiB on top of the timeout, and a small one nothing', () => {
    expect(uploadAllowanceMs(undefined, '{"a":1}')).toBe(0);
    expect(uploadAllowanceMs([{ size: 1024 * 1024 }, { value: 'x' }])).toBe(1000);
    expect(uploadAllowanceMs([{ size: 16 * 1024 * 1024 }])).toBe(15_000);
    expect(uploadAllowanceMs(undefined, 'x'.repeat(3 * 1024 * 1024))).toBe(2000);
  });
});
