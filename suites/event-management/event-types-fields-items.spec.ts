import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { emTest, entity, fixtures, iso, ordinal } from './em-client.ts';
import { accepted, refused, holds } from '../engine/checks/index.ts';
import { createType, field, postType, typeBody } from './em-resources.ts';
import { runCreateJob } from './jobs-support.ts';
import { FIELD_NAME_MAX, ENUM_MEMBER_MAX, FILTERABLE_MAX } from './em-bounds.ts';
import { patch } from './event-types-change-support.ts';

// The items of an event type's fields, of an ENUM field's values and of a create job's events:
// each rule about one item holds wherever the bad item stands among valid ones.

/** Valid fields of three names no bad field takes. */
const VALID_FIELDS = [field('alpha', 'STRING'), field('beta', 'INTEGER'), field('gamma', 'BOOLEAN')];
const VALID_MEMBERS = ['ON', 'OFF', 'IDLE'];
/** A field without type, and one without name. */
const UNTYPED = { name: 'untyped' };
const UNNAMED = { type: 'STRING' };

/** A rule about one item of a type's fields (or of an ENUM field's values): the bad items that break it. */
interface ItemRow {
  rule: string;
  /** The items the bad ones stand among: the type's fields, or the values of its one ENUM field. */
  among: 'fields' | 'values';
  /** How the test's name calls a bad item. */
  bad: string;
  items: Record<string, unknown>;
  /** Every valid item is there (the one a bad item repeats too). */
  allValid?: boolean;
  /** The status of the refusal (400 unless told). */
  statuses?: readonly number[];
  /** The parent type whose fields the bad ones repeat. */
  parentId?: (t: RuleContext) => Promise<string> | string;
  /** Which items are bad rests on this reading: a refusal that does not come is a warning. */
  reading?: string;
  /** A PATCH adding a field is judged by this rule too (its first bad item, the last of the field's values). */
  patched?: boolean;
}

const ITEM_ROWS: ItemRow[] = [
  {
    rule: 'event-management/event-types/field-type-values',
    among: 'fields',
    bad: 'a field of a type other than the eight documented',
    items: Object.fromEntries(
      ['TEXT', 'string', 'FLOAT'].map((type) => [`a field of type ${type}`, field('odd', type)]),
    ),
  },
  {
    rule: 'event-management/event-types/field-type-missing-400',
    patched: true,
    among: 'fields',
    bad: 'a field without type',
    items: { 'a field without type': UNTYPED },
  },
  {
    rule: 'event-management/event-types/field-property-missing-400',
    patched: true,
    among: 'fields',
    bad: 'a field without name, or one that is no object,',
    items: { 'a field without name': UNNAMED, 'a field "level"': 'level', 'a field 5': 5, 'a field null': null },
  },
  {
    rule: 'event-management/event-types/field-name-too-long-400',
    patched: true,
    among: 'fields',
    bad: `a field name over ${FIELD_NAME_MAX} characters`,
    items: {
      [`a field name of ${FIELD_NAME_MAX + 1} characters`]: field('n'.repeat(FIELD_NAME_MAX + 1), 'STRING'),
    },
  },
  {
    rule: 'event-management/event-types/duplicate-field-name-400',
    among: 'fields',
    bad: 'a second field of a name the type already has',
    items: { 'a second field named alpha': field('alpha', 'INTEGER') },
    allValid: true,
  },
  {
    rule: 'event-management/event-types/reserved-field-name-400',
    patched: true,
    among: 'fields',
    bad: 'a field named by a reserved word',
    items: Object.fromEntries(['select', 'function', 'true'].map((w) => [`a field named ${w}`, field(w, 'STRING')])),
    // Which words are reserved the document does not say: refusing these is our reading.
    reading: 'reserved-word-list',
  },
  {
    rule: 'event-management/event-types/filterable-link-400',
    patched: true,
    among: 'fields',
    bad: 'a filterable LINK field',
    items: { 'a filterable LINK field': field('site', 'LINK', { filterable: true }) },
  },
  {
    rule: 'event-management/event-types/enum-values-missing-400',
    patched: true,
    among: 'fields',
    bad: 'an ENUM field without values, or with none,',
    items: {
      'an ENUM field without values': field('mode', 'ENUM'),
      'an ENUM field with no values': field('mode', 'ENUM', { values: [] }),
    },
  },
  {
    rule: 'event-management/event-types/values-for-non-enum-400',
    patched: true,
    among: 'fields',
    bad: 'a field that is not ENUM with values',
    items: { 'a STRING field with values': field('label', 'STRING', { values: ['A', 'B'] }) },
  },
  {
    rule: 'event-management/event-types/field-in-parent-409',
    among: 'fields',
    bad: 'a field of a parent type',
    items: { 'a field the parent type has': field('inherited', 'STRING') },
    statuses: [409],
    parentId: async (t) => String((await createType(t, { fields: [field('inherited', 'STRING')] })).id),
  },
  {
    rule: 'event-management/event-types/field-in-parent-409',
    among: 'fields',
    bad: 'a field of PlatformStandardEvent',
    items: { 'severity under PlatformStandardEvent': field('severity', 'INTEGER') },
    statuses: [409],
    parentId: (t) => fixtures(t).standardEventTypeId,
  },
  {
    rule: 'event-management/event-types/values-not-strings-400',
    patched: true,
    among: 'values',
    bad: 'an ENUM member that is not a string',
    items: { 'the number 5': 5, 'the boolean true': true, 'an object': { value: 'ON' } },
  },
  {
    rule: 'event-management/event-types/values-duplicated-400',
    patched: true,
    among: 'values',
    bad: 'an ENUM member given twice',
    items: { 'ON again': 'ON' },
    allValid: true,
  },
  {
    rule: 'event-management/event-types/enum-member-max-36',
    patched: true,
    among: 'values',
    bad: `an ENUM member over ${ENUM_MEMBER_MAX} characters`,
    items: { [`a member of ${ENUM_MEMBER_MAX + 1} characters`]: 'M'.repeat(ENUM_MEMBER_MAX + 1) },
  },
];

emTest.each(
  ITEM_ROWS,
  (row) => ({
    rules: [row.rule],
    name: `${row.bad} is refused${row.statuses ? ` with ${row.statuses.join(' or ')}` : ''} wherever it stands among the ${row.among}`,
    // Each kind of bad item first, in the middle and last (three requests), then one per generated run; and the parent.
    options: { budget: 3 * Object.keys(row.items).length + (row.parentId ? 1 : 0), budgetPerRun: 1 },
  }),
  async (t, row) => {
    const parentId = row.parentId ? await row.parentId(t) : undefined;
    const valid: unknown[] = row.among === 'fields' ? VALID_FIELDS : VALID_MEMBERS;
    const lists = listWithBadItems<unknown, unknown>({
      rule: row.rule,
      valid,
      bad: row.items,
      ...(row.allValid ? { minValid: valid.length } : {}),
    });
    await t.property(
      lists,
      async (list) => {
        const fields = row.among === 'fields' ? list.items : [field('state', 'ENUM', { values: list.items })];
        const res = await postType(t, typeBody(t, { fields, ...(parentId ? { parentId } : {}) }));
        const what = `${row.among === 'fields' ? 'fields' : 'ENUM values'} with ${badItemsText(list)}`;
        refused(t, { rule: row.rule, res, what, statuses: row.statuses, reading: row.reading });
      },
      { rule: row.rule },
    );
  },
);

emTest(
  [
    'event-management/event-types/reserved-field-name-400',
    'event-management/event-types/field-name-too-long-400',
    'event-management/event-types/field-type-missing-400',
    'event-management/event-types/field-property-missing-400',
    'event-management/event-types/filterable-link-400',
    'event-management/event-types/more-than-10-filterable-400',
    'event-management/event-types/enum-values-missing-400',
    'event-management/event-types/values-for-non-enum-400',
    'event-management/event-types/values-not-strings-400',
    'event-management/event-types/values-duplicated-400',
    'event-management/event-types/enum-member-max-36',
  ],
  'PATCH adding a field applies the field rules of creation',
  async (t) => {
    const type = await createType(t, {
      fields: Array.from({ length: FILTERABLE_MAX }, (_, i) => field(`k${i}`, 'INTEGER', { filterable: true })),
    });
    const add = (value: unknown) => patch(t, String(type.id), { op: 'add', path: '/fields', value });
    // One bad item of each row the PATCH is judged by: the field itself, or the last of an ENUM field's values.
    for (const row of ITEM_ROWS.filter((r) => r.patched)) {
      const [what, item] = Object.entries(row.items)[0];
      const value = row.among === 'fields' ? item : field('state', 'ENUM', { values: [...VALID_MEMBERS, item] });
      refused(t, { rule: row.rule, res: await add(value), what: `PATCH adding ${what}`, reading: row.reading });
    }
    refused(t, {
      rule: 'event-management/event-types/more-than-10-filterable-400',
      res: await add(field('eleventh', 'STRING', { filterable: true })),
      what: `PATCH adding an ${ordinal(FILTERABLE_MAX + 1)} filterable field`,
    });
    accepted(t, {
      rule: 'event-management/event-types/enum-member-max-36',
      res: await add(field('state', 'ENUM', { values: ['m'.repeat(ENUM_MEMBER_MAX)] })),
      what: `PATCH adding an ENUM field with a member of ${ENUM_MEMBER_MAX} characters`,
      statuses: [200],
    });
  },
  { budget: 26 },
);

emTest(
  ['event-management/jobs/create-details'],
  'a create job reports an invalid event as failed, wherever it stands among valid ones, and each valid one as created',
  async (t) => {
    const type = await createType(t, { fields: [field('n', 'INTEGER', { required: true })] });
    const typeId = String(type.id);
    const event = (i: number, over: Record<string, unknown> = {}) => ({
      typeId,
      timestamp: iso(-60_000 - i * 1000),
      entityId: entity(t, i),
      n: i,
      ...over,
    });
    const lists = listWithBadItems({
      rule: 'event-management/jobs/create-details',
      valid: [event(0), event(1), event(2)],
      bad: {
        'an event without its required field': (({ n: _n, ...rest }) => rest)(event(3)),
        'an event whose integer field is text': event(4, { n: 'four' }),
      },
    });
    await t.property(
      lists,
      async (list) => {
        const trace = await runCreateJob(t, list.items);
        const results = (trace.final?.details as { resultDescription?: unknown } | undefined)?.resultDescription;
        const items = Array.isArray(results) ? (results as Array<Record<string, unknown>>) : [];
        // Each result is found by its event's timestamp (the order of the results is our reading).
        const resultOf = (input: { timestamp?: unknown }) =>
          items.find((r) => {
            const e = typeof r.event === 'string' ? (JSON.parse(r.event) as Record<string, unknown>) : r.event;
            return (e as { timestamp?: unknown } | undefined)?.timestamp === input.timestamp;
          });
        const wrong = list.items.flatMap((input, i) => {
          const r = resultOf(input);
          const bad = list.bad.some((b) => b.index === i);
          const ok = bad
            ? !!r && r.resultCode !== '201' && typeof r.errorMessage === 'string'
            : !!r && r.resultCode === '201';
          return ok
            ? []
            : [`item ${i + 1} (${bad ? 'invalid' : 'valid'}): ${r ? JSON.stringify(r).slice(0, 160) : 'no result'}`];
        });
        holds(t, {
          rule: 'event-management/jobs/create-details',
          ok: items.length === list.items.length && wrong.length === 0,
          failure: `the results of a create job with ${badItemsText(list)} do not say which event failed`,
          expected: `${list.items.length} results: the invalid event failed with its errorMessage, each valid one 201`,
          received: () => `${items.length} results; ${wrong.join('; ') || 'each as expected'}`,
        });
      },
      { rule: 'event-management/jobs/create-details', runs: Math.min(t.session.context.runs, 3) },
    );
  },
  { needs: ['fixtures.eventManagement.entityIds'], budget: 22, budgetPerRun: 3, timeout: 120_000 },
);
