import { badItemsText, listWithBadItems } from '../../generators/index.ts';
import { emTest, entity, fixtures, iso } from './em-client.ts';
import { refused, holds } from '../engine/checks/index.ts';
import { createType, field, postType, typeBody } from './em-resources.ts';
import { runCreateJob } from './jobs-support.ts';
import { FIELD_NAME_MAX, ENUM_MEMBER_MAX } from './em-bounds.ts';

// The items of an event type's fields, of an ENUM field's values and of a create job's events:
// each rule about one item holds wherever the bad item stands among valid ones.

/** Valid fields of three names no bad field takes. */
const VALID_FIELDS = [field('alpha', 'STRING'), field('beta', 'INTEGER'), field('gamma', 'BOOLEAN')];
const VALID_MEMBERS = ['ON', 'OFF', 'IDLE'];

/** One rule about one item: the bad items that break it, among the type's fields or an ENUM field's values. */
interface ItemRow {
  rule: string;
  /** The test's name: `${item} is refused wherever ${stands}`. */
  item: string;
  stands: string;
  among: 'fields' | 'values';
  bad: Record<string, unknown>;
  /** Every valid item is there (the bad one repeats one of them). */
  all?: boolean;
  /** Refusing it rests on this reading (a warning when not). */
  reading?: string;
  budget: number;
}

const ITEM_ROWS: ItemRow[] = [
  {
    rule: 'event-management/event-types/field-type-values',
    item: 'a field of a type other than the eight documented',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: Object.fromEntries(['TEXT', 'string', 'FLOAT'].map((type) => [`a field of type ${type}`, field('odd', type)])),
    budget: 9,
  },
  {
    rule: 'event-management/event-types/field-type-missing-400',
    item: 'a field without type',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: { 'a field without type': { name: 'untyped' } },
    budget: 3,
  },
  {
    rule: 'event-management/event-types/field-property-missing-400',
    item: 'a field without name, or one that is no object,',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: {
      'a field without name': { type: 'STRING' },
      'a field "level"': 'level',
      'a field 5': 5,
      'a field null': null,
    },
    budget: 12,
  },
  {
    rule: 'event-management/event-types/field-name-too-long-400',
    item: `a field name over ${FIELD_NAME_MAX} characters`,
    stands: 'its field stands',
    among: 'fields',
    bad: { [`a field name of ${FIELD_NAME_MAX + 1} characters`]: field('n'.repeat(FIELD_NAME_MAX + 1), 'STRING') },
    budget: 3,
  },
  {
    rule: 'event-management/event-types/duplicate-field-name-400',
    item: 'a second field of a name the type already has',
    stands: 'the two stand',
    among: 'fields',
    bad: { 'a second field named alpha': field('alpha', 'INTEGER') },
    all: true,
    budget: 3,
  },
  {
    rule: 'event-management/event-types/reserved-field-name-400',
    item: 'a field named by a reserved word',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: Object.fromEntries(['select', 'function', 'true'].map((w) => [`a field named ${w}`, field(w, 'STRING')])),
    // Which words are reserved the document does not say: refusing these is our reading.
    reading: 'reserved-word-list',
    budget: 9,
  },
  {
    rule: 'event-management/event-types/filterable-link-400',
    item: 'a filterable LINK field',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: { 'a filterable LINK field': field('site', 'LINK', { filterable: true }) },
    budget: 3,
  },
  {
    rule: 'event-management/event-types/enum-values-missing-400',
    item: 'an ENUM field without values, or with none,',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: {
      'an ENUM field without values': field('mode', 'ENUM'),
      'an ENUM field with no values': field('mode', 'ENUM', { values: [] }),
    },
    budget: 6,
  },
  {
    rule: 'event-management/event-types/values-for-non-enum-400',
    item: 'a field that is not ENUM with values',
    stands: 'it stands among the fields',
    among: 'fields',
    bad: { 'a STRING field with values': field('label', 'STRING', { values: ['A', 'B'] }) },
    budget: 3,
  },
  {
    rule: 'event-management/event-types/values-not-strings-400',
    item: 'an ENUM member that is not a string',
    stands: 'it stands among the values',
    among: 'values',
    bad: { 'the number 5': 5, 'the boolean true': true, 'an object': { value: 'ON' } },
    budget: 9,
  },
  {
    rule: 'event-management/event-types/values-duplicated-400',
    item: 'an ENUM member given twice',
    stands: 'the two stand among the values',
    among: 'values',
    bad: { 'ON again': 'ON' },
    all: true,
    budget: 3,
  },
  {
    rule: 'event-management/event-types/enum-member-max-36',
    item: `an ENUM member over ${ENUM_MEMBER_MAX} characters`,
    stands: 'it stands among the values',
    among: 'values',
    bad: { [`a member of ${ENUM_MEMBER_MAX + 1} characters`]: 'M'.repeat(ENUM_MEMBER_MAX + 1) },
    budget: 3,
  },
];

emTest.each(
  ITEM_ROWS,
  (row) => ({
    rules: [row.rule],
    name: `${row.item} is refused wherever ${row.stands}`,
    options: { budget: row.budget, budgetPerRun: 1 },
  }),
  async (t, row) => {
    const valid = row.among === 'fields' ? VALID_FIELDS : VALID_MEMBERS;
    const lists = listWithBadItems<unknown, unknown>({
      rule: row.rule,
      valid,
      bad: row.bad,
      ...(row.all ? { minValid: valid.length } : {}),
    });
    await t.property(
      lists,
      async (list) => {
        const fields = row.among === 'fields' ? list.items : [field('state', 'ENUM', { values: list.items })];
        const res = await postType(t, typeBody(t, { fields }));
        const what = `${row.among === 'fields' ? 'fields' : 'ENUM values'} with ${badItemsText(list)}`;
        refused(t, { rule: row.rule, res, what, reading: row.reading });
      },
      { rule: row.rule },
    );
  },
);

emTest(
  ['event-management/event-types/field-in-parent-409'],
  'a field of a parent type is refused with 409 wherever it stands among the fields',
  async (t) => {
    const parent = await createType(t, { fields: [field('inherited', 'STRING')] });
    const cases: Array<{ parentId: string; bad: Record<string, unknown> }> = [
      { parentId: String(parent.id), bad: { 'a field the parent type has': field('inherited', 'STRING') } },
      {
        parentId: fixtures(t).standardEventTypeId,
        bad: { 'severity under PlatformStandardEvent': field('severity', 'INTEGER') },
      },
    ];
    for (const { parentId, bad } of cases) {
      const rule = 'event-management/event-types/field-in-parent-409';
      await t.property(
        listWithBadItems({ rule, valid: VALID_FIELDS, bad }),
        async (list) => {
          const res = await postType(t, typeBody(t, { fields: list.items, parentId }));
          refused(t, { rule, res, what: `fields with ${badItemsText(list)}`, statuses: [409] });
        },
        { rule },
      );
    }
  },
  { budget: 7, budgetPerRun: 2 },
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
        const trace = await runCreateJob(t, list.items, { someInvalid: true });
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
