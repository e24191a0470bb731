import { boundaryValues } from '../engine/resources/index.ts';
import { CODE_POINT_READING } from './em-arbitraries.ts';
import { where } from '../engine/filter-expression.ts';
import fc from 'fast-check';
import type { HttpResponse } from '../engine/http-client.ts';
import { body, emTest, entity, fixture, fixtures, iso, send, onceVisible } from './em-client.ts';
import { boundaryCases } from '../../generators/index.ts';
import { accepted, refused, holds, taken } from '../engine/checks/index.ts';
import { createType, field, postEvent, postType, typeBody } from './em-resources.ts';
import { FIELD_NAME, FIELD_NAME_MAX, FIELD_TYPES, FIELDS_MAX, INHERITANCE_DEPTH_MAX } from './em-bounds.ts';
import { fieldsNamed, filled } from './event-types-create-support.ts';

emTest(
  ['event-management/event-types/scope-values'],
  'scope takes LOCAL and GLOBAL and defaults to LOCAL; other values answer 400',
  async (t) => {
    // Each scope is taken as given; none given, the type is LOCAL.
    for (const [scope, shown] of [['LOCAL'], ['GLOBAL'], [undefined, 'LOCAL']])
      taken(t, {
        rule: 'event-management/event-types/scope-values',
        res: await postType(t, typeBody(t, scope ? { scope } : {})),
        what: scope ? `scope ${scope}` : 'no scope',
        statuses: [201],
        shows: { scope: shown ?? scope },
      });
    for (const scope of ['global', 'PUBLIC', 1])
      refused(t, {
        rule: 'event-management/event-types/scope-values',
        res: await postType(t, typeBody(t, { scope })),
        what: `scope ${JSON.stringify(scope)}`,
      });
  },
  { budget: 6 },
);

emTest(
  ['event-management/event-types/fields-required', 'event-management/event-types/more-than-100-fields-400'],
  'fields is required and takes 0 to 100 fields; 101 answer 400',
  async (t) => {
    const { fields: _f, ...noFields } = typeBody(t);
    refused(t, {
      rule: 'event-management/event-types/fields-required',
      res: await postType(t, noFields),
      what: 'no fields',
    });
    refused(t, {
      rule: 'event-management/event-types/fields-required',
      res: await postType(t, typeBody(t, { fields: 'level' })),
      what: 'fields not an array',
    });
    accepted(t, {
      rule: 'event-management/event-types/fields-required',
      res: await postType(t, typeBody(t, { fields: [] })),
      what: 'an empty fields array',
    });
    const full = await postType(t, typeBody(t, { fields: fieldsNamed(FIELDS_MAX) }));
    accepted(t, { rule: 'event-management/event-types/fields-required', res: full, what: `${FIELDS_MAX} fields` });
    taken(t, {
      rule: 'event-management/event-types/fields-required',
      res: full,
      what: `${FIELDS_MAX} fields, all kept`,
      statuses: [201],
      shows: { fields: (f: unknown) => ((f ?? []) as unknown[]).length === FIELDS_MAX },
      showsText: `${FIELDS_MAX} fields`,
    });
    refused(t, {
      rule: 'event-management/event-types/more-than-100-fields-400',
      res: await postType(t, typeBody(t, { fields: fieldsNamed(FIELDS_MAX + 1) })),
      what: `${FIELDS_MAX + 1} fields`,
    });
  },
  { budget: 5 },
);

emTest(
  ['event-management/event-types/reserved-type-name-400', 'event-management/event-types/reserved-field-name-400'],
  'reserved words of the database or language are refused as type and field names',
  async (t) => {
    // The document does not name the database or the language: which words are reserved is our
    // reading (SQL and JavaScript/Java keywords), so a refusal that does not come is a warning.
    const reserved = (rule: string, res: HttpResponse, what: string) =>
      refused(t, { rule, res, what, reading: 'reserved-word-list' });
    for (const name of ['select', 'table', 'class', 'null'])
      reserved(
        'event-management/event-types/reserved-type-name-400',
        await postType(t, typeBody(t, { name })),
        `type name "${name}"`,
      );
    for (const name of ['select', 'from', 'function', 'true'])
      reserved(
        'event-management/event-types/reserved-field-name-400',
        await postType(t, typeBody(t, { fields: [field(name, 'STRING')] })),
        `field name "${name}"`,
      );
    accepted(t, {
      rule: 'event-management/event-types/reserved-field-name-400',
      res: await postType(t, typeBody(t, { fields: [field('selection', 'STRING')] })),
      what: 'field name "selection" (not reserved)',
    });
  },
  { budget: 9 },
);

emTest(
  ['event-management/event-types/inheritance-depth-4', 'event-management/event-types/inheritance-depth-above-4-400'],
  'a chain of four types below BaseEvent is taken; a fifth level answers 400',
  async (t) => {
    let parent = fixtures(t).baseEventTypeId;
    for (let depth = 1; depth <= INHERITANCE_DEPTH_MAX; depth++) {
      const res = await onceVisible(() =>
        postType(t, typeBody(t, { parentId: parent, fields: [field(`d${depth}`, 'STRING')] })),
      );
      // Depth counted below BaseEvent (its child is at depth 1): the fourth level rests on that reading;
      // counting BaseEvent itself, the fourth level below it would be depth 5.
      if (depth < INHERITANCE_DEPTH_MAX)
        accepted(t, {
          rule: 'event-management/event-types/inheritance-depth-4',
          res,
          what: `a type at inheritance depth ${depth}`,
        });
      else if (
        !accepted(t, {
          rule: 'event-management/event-types/inheritance-depth-4',
          res,
          what: `a type at inheritance depth ${INHERITANCE_DEPTH_MAX} (the fourth level below BaseEvent)`,
          reading: 'depth-below-base-event',
        })
      ) {
        t.notExercised(
          'event-management/event-types/inheritance-depth-above-4-400',
          'the fourth level below BaseEvent was refused (depth counted with BaseEvent), so no fifth level could be built',
        );
        return;
      }
      parent = body(res).id;
    }
    const fifth = await onceVisible(() => postType(t, typeBody(t, { parentId: parent })));
    refused(t, {
      rule: 'event-management/event-types/inheritance-depth-above-4-400',
      res: fifth,
      what: `a type at inheritance depth ${INHERITANCE_DEPTH_MAX + 1}`,
    });
  },
  { needs: ['fixtures.eventManagement.baseEventTypeId'], budget: 8 },
);

emTest(
  [
    'event-management/event-types/global-with-local-parent-400',
    'event-management/event-types/parent-shared-local-400',
    'event-management/event-types/create-201',
  ],
  'a GLOBAL type with a LOCAL parent, or with a shared LOCAL parent of another tenant, answers 400',
  async (t) => {
    const local = await createType(t);
    refused(t, {
      rule: 'event-management/event-types/global-with-local-parent-400',
      res: await onceVisible(() => postType(t, typeBody(t, { parentId: local.id, scope: 'GLOBAL' }))),
      what: 'a GLOBAL type under a LOCAL parent',
    });
    const global = await createType(t, { scope: 'GLOBAL' });
    accepted(t, {
      rule: 'event-management/event-types/create-201',
      res: await onceVisible(() => postType(t, typeBody(t, { parentId: global.id, scope: 'GLOBAL' }))),
      what: 'a GLOBAL type under a GLOBAL parent',
    });
    const shared = fixture(t, 'sharedEventTypeId');
    refused(t, {
      rule: 'event-management/event-types/parent-shared-local-400',
      res: await postType(t, typeBody(t, { parentId: shared })),
      what: 'a parentId that is a shared LOCAL type of another tenant',
    });
  },
  { needs: ['fixtures.eventManagement.sharedEventTypeId'], budget: 8 },
);

emTest(
  [
    'event-management/event-types/id-exists-409',
    'event-management/event-types/name-exists-409',
    'event-management/event-types/field-in-parent-409',
  ],
  'a second type with the same id or name, or a field of a parent type, answers 409',
  async (t) => {
    const first = await createType(t, { fields: [field('inherited', 'STRING')] });
    const std = fixtures(t).standardEventTypeId;
    const bodies: Array<[string, string, Record<string, unknown>]> = [
      ['event-management/event-types/id-exists-409', 'the id of an existing type', { id: first.id }],
      [
        'event-management/event-types/name-exists-409',
        'the name of an existing type of the tenant',
        { name: first.name },
      ],
      [
        'event-management/event-types/field-in-parent-409',
        'a field the parent type has',
        { parentId: first.id, fields: [field('inherited', 'STRING')] },
      ],
      [
        'event-management/event-types/field-in-parent-409',
        'severity under PlatformStandardEvent',
        { parentId: std, fields: [field('severity', 'INTEGER')] },
      ],
    ];
    for (const [rule, what, over] of bodies)
      refused(t, { rule, res: await postType(t, typeBody(t, over)), what, statuses: [409] });
    // "Event (BaseEvent, request)" lists typeId, correlationId, timestamp and entityId, and a type's parent is
    // BaseEvent by default ("parentId | Default BaseEvent"): a field of one of those names exists in a parent type.
    // Which words are reserved ("reserved words of the database or language", 400) is not shown, and BaseEvent's
    // keys may be among them (timestamp is one of SQL's): a 400 answers them as well as the 409.
    for (const [name, type] of [
      ['typeId', 'STRING'],
      ['correlationId', 'STRING'],
      ['entityId', 'STRING'],
      ['timestamp', 'TIMESTAMP'],
    ])
      refused(t, {
        rule: 'event-management/event-types/field-in-parent-409',
        res: await postType(t, typeBody(t, { fields: [field(name, type)] })),
        what: `a field named ${name} (a field of BaseEvent)`,
        statuses: [409, 400],
      });
  },
  { budget: 9 },
);

// "409 conditions: … create event type, … or the same name for the tenant exists": the name is unique
// within a tenant; another tenant's type of that name is no conflict.
emTest(
  ['event-management/event-types/name-exists-409'],
  "a type named like another tenant's type is created (only the tenant's own names conflict)",
  async (t) => {
    if (!t.session.tokens.has('otherTenant'))
      t.needsPrincipal('principals.otherTenant', 'principals.otherTenant is not configured');
    const mine = await createType(t, { scope: 'LOCAL' });
    // No id: a given one is prefixed with the caller's tenant, which the suite may not know for otherTenant.
    const theirs = await postType(t, { name: mine.name, scope: 'LOCAL', fields: [] }, { as: 'otherTenant' });
    accepted(t, {
      rule: 'event-management/event-types/name-exists-409',
      res: theirs,
      what: `another tenant's type named like a type of this tenant (${String(mine.name)})`,
    });
  },
  { needs: ['principals.otherTenant'], budget: 4 },
);

emTest(
  [
    'event-management/event-types/field-name-length',
    'event-management/event-types/field-name-too-long-400',
    'event-management/event-types/duplicate-field-name-400',
  ],
  `field names of up to ${FIELD_NAME_MAX} characters are taken, longer ones answer 400, and two fields of one name answer 400 (property)`,
  async (t) => {
    await t.property(
      fc.tuple(fc.integer({ min: 1, max: FIELD_NAME_MAX + 26 }), fc.constantFrom('a', 'Z', '9')),
      async ([n, ch]) => {
        const name = `f${ch.repeat(n - 1)}`;
        const res = await postType(t, typeBody(t, { fields: [field(name, 'STRING')] }));
        if (n <= FIELD_NAME_MAX)
          accepted(t, {
            rule: 'event-management/event-types/field-name-length',
            res,
            what: `a field name of ${n} characters`,
          });
        else
          refused(t, {
            rule: 'event-management/event-types/field-name-too-long-400',
            res,
            what: `a field name of ${n} characters`,
          });
      },
      { rule: 'event-management/event-types/field-name-length', runs: Math.min(t.session.context.runs, 10) },
    );
    await boundaryValues(t, {
      // Field names are spelled in ASCII here: whether other letters are allowed is not the rule's point.
      cases: boundaryCases('event-management', FIELD_NAME, 'a field name', {
        keyword: 'maxLength',
        fill: (n, ch) => filled(t, n, ch, 'f'),
        wide: [],
      }),
      send: (name) => postType(t, typeBody(t, { fields: [field(name as string, 'STRING')] })),
      rules: {
        ok: 'event-management/event-types/field-name-length',
        bad: 'event-management/event-types/field-name-too-long-400',
      },
      codePoints: CODE_POINT_READING,
    });
    refused(t, {
      rule: 'event-management/event-types/duplicate-field-name-400',
      res: await postType(t, typeBody(t, { fields: [field('twin', 'STRING'), field('twin', 'INTEGER')] })),
      what: 'two fields named "twin"',
    });
  },
  { budget: 3, budgetPerRun: 3 },
);

emTest(
  ['event-management/event-types/field-type-values', 'event-management/event-types/enum-values-rule'],
  'each documented field type is taken (ENUM with its values)',
  async (t) => {
    const fields = FIELD_TYPES.map((type) =>
      field(`v${type.toLowerCase()}`, type, type === 'ENUM' ? { values: ['ON', 'OFF'] } : {}),
    );
    const res = await postType(t, typeBody(t, { fields }));
    accepted(t, {
      rule: 'event-management/event-types/field-type-values',
      res,
      what: 'one field of each documented type',
    });
    const back = (body(res).fields ?? []) as any[];
    holds(t, {
      rule: 'event-management/event-types/field-type-values',
      ok: FIELD_TYPES.every((ty) => back.some((f) => f.type === ty)),
      failure: 'not every field type kept',
      expected: FIELD_TYPES.join(', '),
      received: JSON.stringify(back.map((f) => f.type)),
    });
    holds(t, {
      rule: 'event-management/event-types/enum-values-rule',
      ok: JSON.stringify(back.find((f) => f.type === 'ENUM')?.values) === JSON.stringify(['ON', 'OFF']),
      failure: 'the ENUM values are not kept',
      expected: '["ON","OFF"]',
      received: JSON.stringify(back.find((f) => f.type === 'ENUM')),
    });
    // Another type, no type, no name or a field that is no object, wherever it stands: event-types-fields-items.spec.ts.
  },
  { budget: 1 },
);

emTest(
  [
    'event-management/event-types/field-filterable-default-false',
    'event-management/event-types/field-required-default-false',
  ],
  'fields without filterable or required are returned with both false: a filter on each answers 400, events without them are taken',
  async (t) => {
    // Two fields: the defaults hold for every field, not only the first.
    const type = await createType(t, { fields: [field('plain', 'STRING'), field('count', 'INTEGER')] });
    const fields = (type.fields ?? []) as Array<Record<string, unknown>>;
    holds(t, {
      rule: 'event-management/event-types/field-filterable-default-false',
      ok: fields.length === 2 && fields.every((f) => f.filterable === false),
      failure: 'filterable does not default to false',
      expected: 'filterable false on both fields',
      received: JSON.stringify(fields),
    });
    holds(t, {
      rule: 'event-management/event-types/field-required-default-false',
      ok: fields.length === 2 && fields.every((f) => f.required === false),
      failure: 'required does not default to false',
      expected: 'required false on both fields',
      received: JSON.stringify(fields),
    });
    for (const [name, value] of [
      ['plain', 'x'],
      ['count', 1],
    ] as const) {
      const q = await send(t, {
        method: 'GET',
        path: '/events',
        query: { filter: where({ typeId: type.id, [name]: value }) },
      });
      refused(t, {
        rule: 'event-management/event-types/field-filterable-default-false',
        res: q,
        what: `a filter on the field ${name}, created without filterable`,
      });
    }
    const ev = await onceVisible(() => postEvent(t, { typeId: type.id, timestamp: iso(-60_000), entityId: entity(t) }));
    accepted(t, {
      rule: 'event-management/event-types/field-required-default-false',
      res: ev,
      what: 'an event without the field created without required',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 5 },
);
