import { boundaryValues, createdAndRead } from '../engine/resources/index.ts';
import { CODE_POINT_READING } from './em-arbitraries.ts';
import { EVENT_TYPE } from './em-descriptions.ts';
import fc from 'fast-check';
import { alphanumeric, boundaryCases } from '../../generators/index.ts';
import { accepted, refused, holds, servesRecord, storedAsSent, taken } from '../engine/checks/index.ts';
import {
  UUID,
  body,
  emTest,
  entity,
  eventually,
  fixtures,
  homeTenant,
  iso,
  send,
  seen,
  tag,
  embedded,
  EM_IO,
  servicePath,
  onceVisible,
} from './em-client.ts';
import { field, postEvent, postType, typeBody, typeId, typeName } from './em-resources.ts';
import { ID_MAX, NAME, TTL, NAME_MAX, TTL_DEFAULT, TTL_MAX } from './em-bounds.ts';
import { filled, exactly } from './event-types-create-support.ts';

emTest(
  [
    'event-management/event-types/create-201',
    'event-management/event-types/response-required-fields',
    'event-management/event-types/owner-creating-tenant',
    'event-management/event-types/links',
    'event-management/etags/event-type-etag-header',
    'event-management/event-types/get-200',
    'event-management/event-types/defaults-applied',
    'event-management/event-types/id-default-uuid',
    'event-management/event-types/parent-default-base-event',
    'event-management/event-types/ttl-default-35',
    'event-management/sharing/present-only-with-include-shared',
  ],
  'POST /eventTypes with only name and fields answers 201 with the defaults, a generated UUID id, the caller as owner, Location and ETag',
  async (t) => {
    const sent = { name: typeName(t), fields: [field('level', 'INTEGER')] };
    const created = await createdAndRead(t, EM_IO, EVENT_TYPE.created, sent, 'an event type with only name and fields');
    const x = created.record as Record<string, any>;
    const got = { value: created.got };
    // The 201 is judged: what it shows is each rule's own (the tenant, when known, is the owner).
    const base = fixtures(t).baseEventTypeId;
    const tenant = homeTenant(t);
    const shows: Array<[string, Record<string, unknown>]> = [
      [
        'event-management/event-types/id-default-uuid',
        { id: (v: unknown) => UUID.test(String(v).replace(/^[^.]*\./, '')) },
      ],
      ['event-management/event-types/parent-default-base-event', { parentId: base }],
      ['event-management/event-types/ttl-default-35', { ttl: TTL_DEFAULT }],
      [
        'event-management/event-types/defaults-applied',
        { parentId: base, ttl: TTL_DEFAULT, scope: 'LOCAL', id: (v: unknown) => typeof v === 'string' },
      ],
      [
        'event-management/event-types/owner-creating-tenant',
        { owner: tenant || ((v: unknown) => typeof v === 'string' && v !== '') },
      ],
    ];
    for (const [rule, members] of shows)
      taken(t, {
        rule,
        res: created.res,
        what: 'an event type with only name and fields',
        statuses: [201],
        shows: members,
      });
    holds(t, {
      rule: 'event-management/event-types/links',
      ok:
        typeof x._links?.self?.href === 'string' &&
        String(x._links.self.href).includes(encodeURIComponent(x.id)) &&
        typeof x._links?.events?.href === 'string',
      failure: 'no self and events links',
      expected: '_links.self (the type URL) and _links.events',
      received: JSON.stringify(x._links),
    });
    // The links are followed (their templates left out): self serves the type, events answers a list of events.
    const linkPath = (href: string) => servicePath(t, href.replace(/\{[^}]*\}/g, ''));
    const selfPath = linkPath(String(x._links.self.href));
    const selfRes = selfPath ? await onceVisible(() => send(t, { method: 'GET', path: selfPath })) : undefined;
    servesRecord(t, {
      rule: 'event-management/event-types/links',
      res: selfRes,
      link: `_links.self ${String(x._links.self.href)}`,
      id: x.id,
      what: 'the type',
    });
    const eventsPath = linkPath(String(x._links.events.href));
    const eventsRes = eventsPath ? await send(t, { method: 'GET', path: eventsPath }) : undefined;
    holds(t, {
      rule: 'event-management/event-types/links',
      ok: eventsRes?.status === 200 && Array.isArray(body(eventsRes)._embedded?.events ?? []),
      failure: 'the events link does not answer a list of events',
      expected: `GET ${String(x._links.events.href)} answers 200 with _embedded.events`,
      received: eventsRes ? seen(eventsRes) : 'an events link outside the service',
    });
    // "events link to the events of this type": an event of the type shows there, and nothing else.
    const made = eventsPath
      ? await onceVisible(() => postEvent(t, { typeId: x.id, timestamp: iso(-60_000), entityId: entity(t), level: 1 }))
      : undefined;
    if (eventsPath && made?.status === 201) {
      const id = body(made).id;
      const listed = await eventually(
        () => send(t, { method: 'GET', path: eventsPath }),
        (r) => r.status === 200 && embedded(r, 'events').some((e: any) => e.id === id),
      );
      const wrong = embedded(listed.value, 'events').filter((e: any) => e.typeId !== x.id);
      holds(t, {
        rule: 'event-management/event-types/links',
        ok: listed.ok && wrong.length === 0,
        failure: 'the events link does not list the events of this type',
        expected: `GET ${String(x._links.events.href)} lists ${id} and only events of ${x.id}`,
        received: () => seen(listed.value, 200),
      });
    }
    taken(t, {
      rule: 'event-management/sharing/present-only-with-include-shared',
      res: created.res,
      what: 'an event type without includeShared',
      statuses: [201],
      shows: { sharing: undefined },
    });
    holds(t, {
      rule: 'event-management/event-types/owner-creating-tenant',
      ok: body(got.value).owner === x.owner,
      failure: 'the owner read back differs',
      expected: String(x.owner),
      received: String(body(got.value).owner),
    });
    holds(t, {
      rule: 'event-management/sharing/present-only-with-include-shared',
      ok: body(got.value).sharing === undefined,
      failure: 'sharing in a GET without includeShared',
      expected: 'no sharing',
      received: JSON.stringify(body(got.value).sharing),
    });
  },
  { needs: ['fixtures.eventManagement.baseEventTypeId', 'fixtures.eventManagement.entityIds'], budget: 5 },
);

emTest(
  [
    'event-management/event-types/id-tenant-prefix',
    'event-management/event-types/id-too-long-400',
    'event-management/event-types/id-not-prefixed-400',
  ],
  "a given id `<tenant>.<alphanumeric>` is kept as it is, up to 64 characters; 65 characters or another tenant's prefix answer 400",
  async (t) => {
    const tenant = homeTenant(t);
    if (!tenant)
      return t.skip(
        'the tenant of the configured principal is not known (a static token); the tenant-prefixed id cannot be built',
      );
    const id = typeId(t);
    const res = await postType(t, typeBody(t, { id }));
    storedAsSent(t, {
      rule: 'event-management/event-types/id-tenant-prefix',
      res,
      statuses: [201],
      stored: body(res),
      sent: { id },
      what: 'a tenant-prefixed id',
    });
    // `<tenant>.` and the rest: ID_MAX characters in all.
    const idMax = `${tenant}.${exactly(t, ID_MAX - 1 - tenant.length, 'q')}`;
    const okMax = await postType(t, typeBody(t, { id: idMax }));
    storedAsSent(t, {
      rule: 'event-management/event-types/id-too-long-400',
      res: okMax,
      statuses: [201],
      stored: body(okMax),
      sent: { id: idMax },
      what: `an id of ${ID_MAX} characters`,
    });
    // One more with the prefix: refused on our reading that the bound counts the prefix.
    refused(t, {
      rule: 'event-management/event-types/id-too-long-400',
      res: await postType(t, typeBody(t, { id: `${tenant}.${exactly(t, ID_MAX - tenant.length, 'q')}` })),
      what: `an id of ${ID_MAX + 1} characters, the tenant prefix included`,
      reading: 'id-length-with-prefix',
    });
    // One more than the bound after the prefix: over it on every reading.
    refused(t, {
      rule: 'event-management/event-types/id-too-long-400',
      res: await postType(t, typeBody(t, { id: `${tenant}.${exactly(t, ID_MAX + 1, 'q')}` })),
      what: `an id of ${ID_MAX + 1} characters after the tenant prefix`,
    });
    const other = fixtures(t).sharedEventTypeOwner ?? 'someothertenant';
    refused(t, {
      rule: 'event-management/event-types/id-not-prefixed-400',
      res: await postType(
        t,
        typeBody(t, { id: `${other === tenant ? 'someothertenant' : other}.${t.prefix}${tag()}` }),
      ),
      what: 'an id prefixed with another tenant',
    });
  },
  { budget: 4 },
);

emTest(
  ['event-management/event-types/id-bare-form'],
  'what a given id without the tenant prefix becomes (left open)',
  async (t) => {
    const bare = `${t.prefix}bare${tag()}`;
    const res = await postType(t, typeBody(t, { id: bare }));
    const tenant = homeTenant(t);
    t.observe(
      'event-management/event-types/id-bare-form',
      res.status === 201
        ? `a bare id "${bare}" was created as "${body(res).id}"${tenant && body(res).id === `${tenant}.${bare}` ? ' (prefixed with the tenant)' : ''}`
        : `a bare id "${bare}" answered HTTP ${res.status}`,
    );
  },
  { budget: 1 },
);

emTest(
  ['event-management/event-types/id-special-characters-400', 'event-management/event-types/id-tenant-prefix'],
  'an id with a character that is not alphanumeric after the tenant prefix answers 400; alphanumeric ones are taken (property)',
  async (t) => {
    const tenant = homeTenant(t);
    if (!tenant) return t.skip('the tenant of the configured principal is not known (a static token)');
    const bad = fc.constantFrom('-', '_', ' ', '.', '!', '/', '*', '%');
    const cases = fc.tuple(alphanumeric(1, 8), fc.option(bad, { nil: undefined }), alphanumeric(0, 4));
    await t.property(
      cases,
      async ([a, ch, b]) => {
        const id = `${tenant}.${t.prefix}${tag()}${a}${ch ?? ''}${b}`;
        const res = await postType(t, typeBody(t, { id }));
        if (ch === undefined)
          storedAsSent(t, {
            rule: 'event-management/event-types/id-tenant-prefix',
            res,
            statuses: [201],
            stored: body(res),
            sent: { id },
            what: 'an alphanumeric id',
          });
        else
          refused(t, {
            rule: 'event-management/event-types/id-special-characters-400',
            res,
            what: `id ${JSON.stringify(id)}`,
          });
      },
      { rule: 'event-management/event-types/id-special-characters-400', runs: Math.min(t.session.context.runs, 12) },
    );
    refused(t, {
      rule: 'event-management/event-types/id-special-characters-400',
      res: await postType(t, typeBody(t, { id: `${tenant}.${t.prefix}a-b` })),
      what: 'an id with "-"',
    });
    // A letter outside ASCII: refused on our reading that "alphanumeric" means A-Z, a-z and 0-9.
    refused(t, {
      rule: 'event-management/event-types/id-special-characters-400',
      res: await postType(t, typeBody(t, { id: `${tenant}.${t.prefix}${tag()}é` })),
      what: 'an id with "é"',
      reading: 'alphanumeric-ascii',
    });
  },
  { budget: 2, budgetPerRun: 3 },
);

emTest(
  [
    'event-management/event-types/name-length',
    'event-management/event-types/name-too-long-400',
    'event-management/event-types/name-missing-400',
  ],
  `names of 1 to ${NAME_MAX} characters are taken; more, none and an empty name answer 400 (property)`,
  async (t) => {
    await t.property(
      fc.integer({ min: 20, max: NAME_MAX + 26 }), // not a contract bound: the shortest name drawn
      async (n) => {
        const res = await postType(t, typeBody(t, { name: exactly(t, n) }));
        if (n <= NAME_MAX)
          accepted(t, { rule: 'event-management/event-types/name-length', res, what: `a name of ${n} characters` });
        else
          refused(t, {
            rule: 'event-management/event-types/name-too-long-400',
            res,
            what: `a name of ${n} characters`,
          });
      },
      { rule: 'event-management/event-types/name-length', runs: Math.min(t.session.context.runs, 10) },
    );
    await boundaryValues(t, {
      cases: boundaryCases('event-management', NAME, 'a name', {
        keyword: 'maxLength',
        fill: (n, ch) => filled(t, n, ch),
      }),
      send: (name) => postType(t, typeBody(t, { name: name as string })),
      rules: { ok: 'event-management/event-types/name-length', bad: 'event-management/event-types/name-too-long-400' },
      codePoints: CODE_POINT_READING,
    });
    const { name: _n, ...noName } = typeBody(t);
    // "Required; at most 64 characters" sets no minimum: that an empty name counts as missing is our reading.
    for (const [json, what, reading] of [
      [noName, 'no name'],
      [typeBody(t, { name: '' }), 'an empty name', 'empty-name-missing'],
      [null, 'the JSON body null (no name in it)'],
    ] as const)
      refused(t, {
        rule: 'event-management/event-types/name-missing-400',
        res: await postType(t, json),
        what,
        reading,
      });
  },
  { budget: 8, budgetPerRun: 3 },
);

emTest(
  ['event-management/event-types/ttl-max-1825', 'event-management/event-types/ttl-above-1825-400'],
  `ttl up to ${TTL_MAX} days is taken; above answers 400 (property)`,
  async (t) => {
    await t.property(
      fc.integer({ min: 1, max: 2 * TTL_MAX + 350 }),
      async (ttl) => {
        const res = await postType(t, typeBody(t, { ttl }));
        if (ttl <= TTL_MAX) {
          accepted(t, { rule: 'event-management/event-types/ttl-max-1825', res, what: `ttl ${ttl}` });
          storedAsSent(t, {
            rule: 'event-management/event-types/ttl-max-1825',
            what: 'ttl',
            sent: { ttl },
            stored: body(res),
          });
        } else refused(t, { rule: 'event-management/event-types/ttl-above-1825-400', res, what: `ttl ${ttl}` });
      },
      { rule: 'event-management/event-types/ttl-max-1825', runs: Math.min(t.session.context.runs, 10) },
    );
    // The lower bound's other side (0) is a rule of its own; here: 1 and the maximum taken, one more refused.
    await boundaryValues(t, {
      cases: boundaryCases('event-management', TTL, 'ttl').filter((c) => c.valid || c.constraint === 'maximum'),
      send: (ttl) => postType(t, typeBody(t, { ttl: ttl as number })),
      rules: {
        ok: 'event-management/event-types/ttl-max-1825',
        bad: 'event-management/event-types/ttl-above-1825-400',
      },
      codePoints: CODE_POINT_READING,
    });
  },
  { budget: 4, budgetPerRun: 3 },
);
