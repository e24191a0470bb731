import { badItemsText, listWithBadItems, type ListWithBadItems } from '../../generators/index.ts';
import type { HttpResponse } from '../engine/http-client.ts';
import type { RuleContext } from '../engine/rule-test.ts';
import { emTest, entity, fixtures, iso, seen } from './em-client.ts';
import { refused, holds } from '../engine/checks/index.ts';
import { createType, field, postType, typeBody } from './em-resources.ts';
import { runCreateJob } from './jobs-support.ts';
import { FIELD_NAME_MAX, ENUM_MEMBER_MAX } from './em-bounds.ts';

// The items of an event type's fields, of an ENUM field's values and of a create job's events:
// each rule about one item holds wherever the bad item stands among valid ones.

/** Valid fields of three names no bad field takes. */
const VALID_FIELDS = [field('alpha', 'STRING'), field('beta', 'INTEGER'), field('gamma', 'BOOLEAN')];

/** POST /eventTypes with the list as its fields (under `parentId` where given): refused with one of `statuses`. */
async function refusedFields(
  t: RuleContext,
  rule: string,
  list: ListWithBadItems,
  statuses: readonly number[] = [400],
  parentId?: string,
): Promise<void> {
  const res = await postType(t, typeBody(t, { fields: list.items, ...(parentId ? { parentId } : {}) }));
  refused(t, { rule, res, what: `fields with ${badItemsText(list)}`, statuses });
}

emTest(
  ['event-management/event-types/field-type-values'],
  'a field of a type other than the eight documented is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/field-type-values',
      valid: VALID_FIELDS,
      bad: Object.fromEntries(
        ['TEXT', 'string', 'FLOAT'].map((type) => [`a field of type ${type}`, field('odd', type)]),
      ),
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/field-type-values', list), {
      rule: 'event-management/event-types/field-type-values',
    });
  },
  { budget: 9, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/field-type-missing-400'],
  'a field without type is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/field-type-missing-400',
      valid: VALID_FIELDS,
      bad: { 'a field without type': { name: 'untyped' } },
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/field-type-missing-400', list), {
      rule: 'event-management/event-types/field-type-missing-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/field-property-missing-400'],
  'a field without name, or one that is no object, is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/field-property-missing-400',
      valid: VALID_FIELDS,
      bad: {
        'a field without name': { type: 'STRING' },
        'a field "level"': 'level',
        'a field 5': 5,
        'a field null': null,
      },
    });
    await t.property(
      lists,
      (list) => refusedFields(t, 'event-management/event-types/field-property-missing-400', list),
      { rule: 'event-management/event-types/field-property-missing-400' },
    );
  },
  { budget: 12, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/field-name-too-long-400'],
  `a field name over ${FIELD_NAME_MAX} characters is refused wherever its field stands`,
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/field-name-too-long-400',
      valid: VALID_FIELDS,
      bad: { [`a field name of ${FIELD_NAME_MAX + 1} characters`]: field('n'.repeat(FIELD_NAME_MAX + 1), 'STRING') },
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/field-name-too-long-400', list), {
      rule: 'event-management/event-types/field-name-too-long-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/duplicate-field-name-400'],
  'a second field of a name the type already has is refused wherever the two stand',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/duplicate-field-name-400',
      valid: VALID_FIELDS,
      bad: { 'a second field named alpha': field('alpha', 'INTEGER') },
      // Every valid field is there: the one the bad field repeats too.
      minValid: VALID_FIELDS.length,
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/duplicate-field-name-400', list), {
      rule: 'event-management/event-types/duplicate-field-name-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/reserved-field-name-400'],
  'a field named by a reserved word is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/reserved-field-name-400',
      valid: VALID_FIELDS,
      bad: Object.fromEntries(['select', 'function', 'true'].map((w) => [`a field named ${w}`, field(w, 'STRING')])),
    });
    // Which words are reserved the document does not say: refusing these is our reading.
    await t.property(
      lists,
      async (list) => {
        const res = await postType(t, typeBody(t, { fields: list.items }));
        holds(t, {
          reading: 'reserved-word-list',
          rule: 'event-management/event-types/reserved-field-name-400',
          ok: res.status === 400,
          failure: `not rejected: fields with ${badItemsText(list)}`,
          expected: 'HTTP 400',
          received: () => seen(res),
        });
      },
      { rule: 'event-management/event-types/reserved-field-name-400' },
    );
  },
  { budget: 9, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/filterable-link-400'],
  'a filterable LINK field is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/filterable-link-400',
      valid: VALID_FIELDS,
      bad: { 'a filterable LINK field': field('site', 'LINK', { filterable: true }) },
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/filterable-link-400', list), {
      rule: 'event-management/event-types/filterable-link-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/enum-values-missing-400'],
  'an ENUM field without values, or with none, is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/enum-values-missing-400',
      valid: VALID_FIELDS,
      bad: {
        'an ENUM field without values': field('mode', 'ENUM'),
        'an ENUM field with no values': field('mode', 'ENUM', { values: [] }),
      },
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/enum-values-missing-400', list), {
      rule: 'event-management/event-types/enum-values-missing-400',
    });
  },
  { budget: 6, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/values-for-non-enum-400'],
  'a field that is not ENUM with values is refused wherever it stands among the fields',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/values-for-non-enum-400',
      valid: VALID_FIELDS,
      bad: { 'a STRING field with values': field('label', 'STRING', { values: ['A', 'B'] }) },
    });
    await t.property(lists, (list) => refusedFields(t, 'event-management/event-types/values-for-non-enum-400', list), {
      rule: 'event-management/event-types/values-for-non-enum-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/field-in-parent-409'],
  'a field of a parent type is refused with 409 wherever it stands among the fields',
  async (t) => {
    const parent = await createType(t, { fields: [field('inherited', 'STRING')] });
    const lists = listWithBadItems({
      rule: 'event-management/event-types/field-in-parent-409',
      valid: VALID_FIELDS,
      bad: { 'a field the parent type has': field('inherited', 'STRING') },
    });
    await t.property(
      lists,
      (list) => refusedFields(t, 'event-management/event-types/field-in-parent-409', list, [409], String(parent.id)),
      { rule: 'event-management/event-types/field-in-parent-409' },
    );
    const standard = listWithBadItems({
      rule: 'event-management/event-types/field-in-parent-409',
      valid: VALID_FIELDS,
      bad: { 'severity under PlatformStandardEvent': field('severity', 'INTEGER') },
    });
    await t.property(
      standard,
      (list) =>
        refusedFields(
          t,
          'event-management/event-types/field-in-parent-409',
          list,
          [409],
          fixtures(t).standardEventTypeId,
        ),
      { rule: 'event-management/event-types/field-in-parent-409' },
    );
  },
  { budget: 7, budgetPerRun: 2 },
);

/** POST /eventTypes with one ENUM field whose values are the list: refused with 400. */
async function refusedValues(t: RuleContext, rule: string, list: ListWithBadItems): Promise<void> {
  const res: HttpResponse = await postType(
    t,
    typeBody(t, { fields: [field('state', 'ENUM', { values: list.items })] }),
  );
  refused(t, { rule, res, what: `ENUM values with ${badItemsText(list)}` });
}

const VALID_MEMBERS = ['ON', 'OFF', 'IDLE'];

emTest(
  ['event-management/event-types/values-not-strings-400'],
  'an ENUM member that is not a string is refused wherever it stands among the values',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/values-not-strings-400',
      valid: VALID_MEMBERS,
      bad: { 'the number 5': 5, 'the boolean true': true, 'an object': { value: 'ON' } },
    });
    await t.property(lists, (list) => refusedValues(t, 'event-management/event-types/values-not-strings-400', list), {
      rule: 'event-management/event-types/values-not-strings-400',
    });
  },
  { budget: 9, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/values-duplicated-400'],
  'an ENUM member given twice is refused wherever the two stand among the values',
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/values-duplicated-400',
      valid: VALID_MEMBERS,
      bad: { 'ON again': 'ON' },
      minValid: VALID_MEMBERS.length,
    });
    await t.property(lists, (list) => refusedValues(t, 'event-management/event-types/values-duplicated-400', list), {
      rule: 'event-management/event-types/values-duplicated-400',
    });
  },
  { budget: 3, budgetPerRun: 1 },
);

emTest(
  ['event-management/event-types/enum-member-max-36'],
  `an ENUM member over ${ENUM_MEMBER_MAX} characters is refused wherever it stands among the values`,
  async (t) => {
    const lists = listWithBadItems({
      rule: 'event-management/event-types/enum-member-max-36',
      valid: VALID_MEMBERS,
      bad: { [`a member of ${ENUM_MEMBER_MAX + 1} characters`]: 'M'.repeat(ENUM_MEMBER_MAX + 1) },
    });
    await t.property(lists, (list) => refusedValues(t, 'event-management/event-types/enum-member-max-36', list), {
      rule: 'event-management/event-types/enum-member-max-36',
    });
  },
  { budget: 3, budgetPerRun: 1 },
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
