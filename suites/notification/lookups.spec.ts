import { holds, listed, hasMembers } from '../engine/checks/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import {
  fixturesOf,
  integersIn,
  mentionsInteger,
  notificationTest as test,
  seen,
  send,
} from './notification-client.ts';

// The lookups are declared only as "string": the suite looks for the documented names and for the
// integer IDs the run configuration gives, not for field names.

function describeShape(res: HttpResponse): string {
  const v = res.json;
  if (v === undefined) return `${res.contentType || 'no content type'} text`;
  if (Array.isArray(v))
    return `JSON array of ${v.length}${v.length ? `, items ${v[0] && typeof v[0] === 'object' ? `with fields ${Object.keys(v[0]).join(', ')}` : typeof v[0]}` : ''}`;
  return v && typeof v === 'object' ? `JSON object with fields ${Object.keys(v).join(', ')}` : `JSON ${typeof v}`;
}

test(
  ['notification/lookups/channels', 'notification/general/record-fields-not-shown'],
  'GET /communicationchannel/ lists EMAIL, SMS and PUSH with integer IDs',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/communicationchannel/' });
    const text = res.json !== undefined ? JSON.stringify(res.json) : res.text;
    listed(t, {
      rule: 'notification/lookups/channels',
      res,
      what: 'the channels EMAIL, SMS and PUSH (in any case)',
      items: ['EMAIL', 'SMS', 'PUSH'],
      holds: (_, n) => new RegExp(String(n), 'i').test(text),
    });
    // The listing is "200 string", its record not shown: that it gives each channel's integer ID (the
    // IDs templates name) is our reading.
    const configured = Object.entries(fixturesOf(t).channels ?? {});
    const unlisted = configured.filter(([, id]) => !mentionsInteger(res, id));
    holds(t, {
      rule: 'notification/lookups/channels',
      ok: integersIn(res.json).size >= 3 && unlisted.length === 0,
      failure: 'configured channel IDs not listed',
      expected: configured.map(([k, v]) => `${k} ${String(v)}`).join(', '),
      received: `${unlisted.length ? `missing ${unlisted.map(([k]) => k).join(', ')} — ` : ''}${seen(res)}`,
      reading: 'channel-ids-listed',
    });
    t.observe('notification/general/record-fields-not-shown', `channel listing: ${describeShape(res)}`);
  },
  { readOnly: true, budget: 1 },
);

test(
  ['notification/lookups/param-types', 'notification/general/record-fields-not-shown'],
  'GET /paramtype/ lists the parameter types with integer IDs',
  async (t) => {
    const res = await send(t, { method: 'GET', path: '/paramtype/' });
    const id = fixturesOf(t).paramTypeId;
    listed(t, {
      rule: 'notification/lookups/param-types',
      res,
      what: 'the parameter types, with integer IDs (the configured one among them)',
      items: id === undefined ? ['an integer ID'] : [id],
      holds: (r, i) => integersIn(r.json).size > 0 && (typeof i !== 'number' || mentionsInteger(r, i)),
    });
    t.observe('notification/general/record-fields-not-shown', `parameter types: ${describeShape(res)}`);
  },
  { readOnly: true, budget: 1 },
);

/** Checks the ErrorMessage body the channel listing names for a non-success status. */
function checkErrorMessage(t: RuleContext, res: HttpResponse, what: string): void {
  const body = (res.json ?? {}) as { message?: unknown; status?: unknown };
  hasMembers(t, {
    rule: 'notification/errors/channel-error-message',
    what: `the ErrorMessage of a refusal ${what}`,
    // A success carries no ErrorMessage: it is judged as an answer without one.
    value: res.status >= 400 ? body : undefined,
    members: { message: 'string', status: (v) => Number.isInteger(v) },
  });
  // ErrorMessage names a status, not which: that it is the HTTP status is our reading.
  holds(t, {
    rule: 'notification/errors/channel-error-message',
    ok: body.status === res.status,
    failure: `${what}: ErrorMessage status is not the HTTP status`,
    expected: `status ${res.status}`,
    received: seen(res),
    reading: 'error-message-http-status',
  });
}

test(
  ['notification/errors/channel-error-message'],
  'a non-success answer of GET /communicationchannel/ carries an ErrorMessage (message, status)',
  async (t) => {
    checkErrorMessage(t, await send(t, { method: 'GET', path: '/communicationchannel/' }, null), 'without a token');
    checkErrorMessage(
      t,
      await send(
        t,
        { method: 'GET', path: '/communicationchannel/', headers: { authorization: 'Bearer not-a-jwt' } },
        null,
      ),
      'with a malformed token',
    );
    if (t.session.tokens.has('without:nose.ac'))
      checkErrorMessage(
        t,
        await send(t, { method: 'GET', path: '/communicationchannel/' }, 'without:nose.ac'),
        'without nose.ac',
      );
    else
      t.notExercised(
        'notification/errors/channel-error-message',
        'principals.withoutScope["nose.ac"] is not configured, so the 403 answer was not tried',
      );
  },
  { readOnly: true, budget: 3 },
);

test(
  ['notification/general/plain-string-bodies', 'notification/general/events-not-shown'],
  'what the operations declared as plain "string" answer',
  async (t) => {
    const paths = [
      '/recipient/addresstype',
      '/communicationchannel/',
      '/paramtype/',
      '/template/templatelistdetails',
      '/certificatestore/',
    ];
    const shapes: string[] = [];
    for (const path of paths) {
      const res = await send(t, { method: 'GET', path });
      shapes.push(`GET ${path}: HTTP ${res.status}, ${describeShape(res)}`);
    }
    const search = await send(t, { method: 'POST', path: '/recipient/search', json: { name: `${t.prefix}nobody` } });
    shapes.push(`POST /recipient/search: HTTP ${search.status}, ${describeShape(search)}`);
    t.observe('notification/general/plain-string-bodies', shapes.join('; '));
    const events = Object.keys(search.headers).filter((h) => /event|webhook|callback/i.test(h));
    t.observe(
      'notification/general/events-not-shown',
      `no event interface is documented; response headers mention none${events.length ? ` besides ${events.join(', ')}` : ''}`,
    );
  },
  { readOnly: true, budget: 6 },
);
