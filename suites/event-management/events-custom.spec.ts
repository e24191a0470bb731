import type { RuleContext } from '../engine/rule-test.ts';
import { body, emTest, entity, iso, seen, onceVisible } from './em-client.ts';
import { accepted, refused, holds } from '../engine/checks/index.ts';
import { ENUM_VALUES, customFieldCases, customFieldName, type FieldCase } from './em-arbitraries.ts';
import { createType, field, postEvent } from './em-resources.ts';
import { FIELD_TYPES, TTL_MAX } from './em-bounds.ts';

/** A type with one optional field of every documented field type. */
async function allTypes(t: RuleContext): Promise<string> {
  const type = await createType(t, {
    ttl: TTL_MAX,
    fields: FIELD_TYPES.map((ty) => field(customFieldName(ty), ty, ty === 'ENUM' ? { values: ENUM_VALUES } : {})),
  });
  return type.id;
}

/** The value returned is the one sent; a TIMESTAMP may come back in another UTC form of the same instant. */
function sameValue(fieldName: string, got: unknown, sent: unknown): boolean {
  if (fieldName === customFieldName('TIMESTAMP') && typeof got === 'string' && typeof sent === 'string')
    return Date.parse(got) === Date.parse(sent);
  return JSON.stringify(got) === JSON.stringify(sent);
}

async function judgeCustom(t: RuleContext, typeId: string, c: FieldCase): Promise<void> {
  const res = await onceVisible(() =>
    postEvent(t, { typeId, timestamp: iso(-60_000), entityId: entity(t), [c.field]: c.value }),
  );
  if (c.valid) {
    accepted(t, { rule: c.rule, res, what: `an event with ${c.what}` });
    holds(t, {
      rule: c.rule,
      ok: sameValue(c.field, body(res)[c.field], c.value),
      failure: `${c.what} not returned unchanged`,
      expected: JSON.stringify(c.value),
      received: JSON.stringify(body(res)[c.field]),
    });
  } else refused(t, { rule: c.rule, res, what: `an event with ${c.what}` });
}

emTest(
  [
    'event-management/events/custom-field-value-types',
    'event-management/events/link-value-quoted',
    'event-management/events/incompatible-value-400',
    'event-management/events/invalid-uuid-field-400',
    'event-management/event-types/enum-values-rule',
    'event-management/events/full-event-in-write-responses',
  ],
  'custom field values of every type are stored unchanged; values of the wrong type, an invalid uuid or a non-member of an ENUM answer 400 (property)',
  async (t) => {
    const typeId = await allTypes(t);
    const { examples, arbitrary } = customFieldCases();
    for (const c of examples) await judgeCustom(t, typeId, c);
    await t.property(arbitrary, (c) => judgeCustom(t, typeId, c), {
      rule: 'event-management/events/custom-field-value-types',
      runs: Math.min(t.session.context.runs, 25),
    });
    const full = Object.fromEntries(
      FIELD_TYPES.map((ty) => [
        customFieldName(ty),
        examples.find((c) => c.valid && c.field === customFieldName(ty))!.value,
      ]),
    );
    const res = await postEvent(t, { typeId, timestamp: iso(-60_000), entityId: entity(t), ...full });
    const wrong = Object.entries(full).filter(([k, v]) => !sameValue(k, body(res)[k], v));
    holds(t, {
      rule: 'event-management/events/full-event-in-write-responses',
      ok: res.status === 201 && wrong.length === 0,
      failure: 'the 201 does not carry every custom field',
      expected: JSON.stringify(full),
      received: () => `differs in ${wrong.map(([k]) => k).join(', ')}: ${JSON.stringify(body(res))}`,
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 49, budgetPerRun: 1 },
);

emTest(
  ['event-management/events/custom-matches-type', 'event-management/events/required-field-missing-400'],
  'an event of a child type takes the fields of the type and its ancestors, refuses any other, and needs every required field (own or inherited)',
  async (t) => {
    const parent = await createType(t, {
      fields: [field('plevel', 'INTEGER', { required: true }), field('pnote', 'STRING')],
    });
    const child = await createType(t, { parentId: parent.id, fields: [field('cflag', 'BOOLEAN', { required: true })] });
    const post = (extra: Record<string, unknown>) =>
      onceVisible(() => postEvent(t, { typeId: child.id, timestamp: iso(-60_000), entityId: entity(t), ...extra }));
    accepted(t, {
      rule: 'event-management/events/custom-matches-type',
      res: await post({ plevel: 1, pnote: 'n', cflag: true }),
      what: 'an event with own and inherited fields',
    });
    // Refusing a field the type does not define (rather than ignoring it) is our reading of "match".
    for (const [extra, what] of [
      [{ stray: 'x' }, 'a field the type does not define'],
      [{ severity: 5 }, 'a standard field on a custom type'],
    ] as const) {
      const res = await post({ plevel: 1, cflag: true, ...extra });
      refused(t, {
        rule: 'event-management/events/custom-matches-type',
        res,
        what,
        reading: 'undefined-field-refused',
      });
      // Accepted or not, it is never stored as a field of the event.
      if (res.status === 201)
        holds(t, {
          rule: 'event-management/events/custom-matches-type',
          ok: !Object.keys(extra).some((k) => k in body(res)),
          failure: `${what} stored with the event`,
          expected: 'the field dropped',
          received: () => seen(res),
        });
    }
    refused(t, {
      rule: 'event-management/events/required-field-missing-400',
      res: await post({ cflag: true }),
      what: 'no value for an inherited required field',
    });
    refused(t, {
      rule: 'event-management/events/required-field-missing-400',
      res: await post({ plevel: 1 }),
      what: 'no value for an own required field',
    });
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 8 },
);
