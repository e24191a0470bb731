import fc from 'fast-check';
import { notModified } from '../engine/checks/index.ts';
import { emTest, fixtures, send } from './em-client.ts';
import { asRequest, createEvent, createType, standardBody } from './em-resources.ts';
import { SEVERITY, TTL_MAX } from './em-bounds.ts';
import { EVENT, EVENT_TYPE } from './em-descriptions.ts';
import { readCurrent, type Versioned, type VersionedModel } from './versioned/model.ts';
import type { RuleContext, RuleTestOptions } from '../engine/rule-test.ts';
import { Get } from './versioned/get.ts';
import { GetIfNoneMatchCurrent } from './versioned/get-if-none-match-current.ts';
import { GetIfNoneMatchStale } from './versioned/get-if-none-match-stale.ts';
import { WriteCurrent } from './versioned/write-current.ts';
import { WriteStale } from './versioned/write-stale.ts';
import { WriteOtherEtag } from './versioned/write-other-etag.ts';
import { WriteWithoutIfMatch } from './versioned/write-without-if-match.ts';
import { DeleteOtherEtag } from './versioned/delete-other-etag.ts';
import { DeleteWithoutIfMatch } from './versioned/delete-without-if-match.ts';

// ---------------------------------------------------------------- the versioned-resource model

type Command = fc.AsyncCommand<VersionedModel, Versioned>;

// not a contract bound: how far a wrong etag lies from the current one
const nonZero = fc.oneof(fc.integer({ min: -3, max: -1 }), fc.integer({ min: 1, max: 500 }));

/** One resource under the versioned-resource model: the commands drawn, and every command once besides. */
interface ModelRow {
  noun: string;
  says: string;
  rules: string[];
  /** The rule a failure of the property is attributed to. */
  counter: string;
  commands: Array<fc.Arbitrary<Command>>;
  start(t: RuleContext): Promise<{ real: Versioned; model: VersionedModel }>;
  every: Command[];
  runs: number;
  options: RuleTestOptions;
}

const MODELS: ModelRow[] = [
  {
    noun: 'event',
    says: 'a PUT with the current etag changes it, nothing else does; stale or missing If-Match is refused; If-None-Match answers 304',
    rules: [
      'event-management/etags/event-etag-header',
      'event-management/etags/get-event-304',
      'event-management/etags/update-event-stale-412',
      'event-management/etags/update-event-if-match-required',
      'event-management/events/etag-counter',
      'event-management/events/update-200',
    ],
    counter: 'event-management/events/etag-counter',
    commands: [
      fc.constant(new Get()),
      fc.constant(new GetIfNoneMatchCurrent()),
      fc.constant(new GetIfNoneMatchStale()),
      fc.integer({ min: SEVERITY.min, max: SEVERITY.max }).map((s) => new WriteCurrent(s)),
      fc.nat(5).map((n) => new WriteStale(n)),
      fc.integer({ min: 1, max: 1000 }).map((n) => new WriteOtherEtag(n)),
      fc.constantFrom(undefined, 'abc', '"x"').map((h) => new WriteWithoutIfMatch(h)),
    ],
    async start(t) {
      const e = await createEvent(t, standardBody(t, { severity: 1 }));
      return { real: EVENT.versioned(t, e.id, asRequest(e)), model: { etag: e.etag, stale: [], value: 1 } };
    },
    every: [
      new Get(),
      new GetIfNoneMatchCurrent(),
      new WriteCurrent(5),
      new WriteStale(0),
      new WriteOtherEtag(3),
      new WriteWithoutIfMatch(undefined),
      new WriteWithoutIfMatch('abc'),
      new GetIfNoneMatchStale(),
    ],
    runs: 8,
    options: { needs: ['fixtures.eventManagement.entityIds'], budget: 15, budgetPerRun: 10, timeout: 120_000 },
  },
  {
    noun: 'event type',
    says: 'PATCH with the current etag changes it, nothing else does; a differing If-Match is 412 on PATCH and 409 on DELETE; none is 400',
    rules: [
      'event-management/etags/event-type-etag-header',
      'event-management/etags/get-event-type-304',
      'event-management/etags/patch-event-type-stale-412',
      'event-management/etags/patch-event-type-if-match-required',
      'event-management/etags/delete-event-type-stale-409',
      'event-management/etags/delete-event-type-if-match-required',
      'event-management/etags/event-type-etag-counter',
      'event-management/event-types/patch-200',
    ],
    counter: 'event-management/etags/event-type-etag-counter',
    commands: [
      fc.constant(new Get()),
      fc.constant(new GetIfNoneMatchCurrent()),
      fc.integer({ min: 1, max: TTL_MAX }).map((n) => new WriteCurrent(n)),
      nonZero.map((n) => new WriteOtherEtag(n)),
      fc.constantFrom(undefined, 'abc').map((h) => new WriteWithoutIfMatch(h)),
      nonZero.map((n) => new DeleteOtherEtag(n)),
      fc.constantFrom(undefined, 'abc').map((h) => new DeleteWithoutIfMatch(h)),
    ],
    async start(t) {
      const type = await createType(t);
      return { real: EVENT_TYPE.versioned(t, type.id, {}), model: { etag: type.etag, stale: [], value: type.ttl } };
    },
    every: [
      new Get(),
      new GetIfNoneMatchCurrent(),
      new WriteCurrent(40),
      new WriteOtherEtag(-1),
      new WriteOtherEtag(5),
      new WriteWithoutIfMatch(undefined),
      new WriteWithoutIfMatch('abc'),
      new DeleteOtherEtag(-1),
      new DeleteOtherEtag(3),
      new DeleteWithoutIfMatch(undefined),
      new DeleteWithoutIfMatch('abc'),
      new Get(),
    ],
    runs: 6,
    options: { budget: 20, budgetPerRun: 12, timeout: 120_000 },
  },
];

emTest.each(
  MODELS,
  (row) => ({ rules: row.rules, name: `${row.noun} ETags (model): ${row.says}`, options: row.options }),
  async (t, row) => {
    await t.property(
      fc.commands(row.commands, { maxCommands: 7 }),
      async (cmds) => {
        const { model, real } = await row.start(t);
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        await readCurrent(model, real);
      },
      { rule: row.counter, runs: Math.min(t.session.context.runs, row.runs) },
    );
    // Every command at least once, whatever the property drew.
    const { model, real } = await row.start(t);
    for (const c of row.every) await c.run(model, real);
  },
);

// "304 Not Modified answers a conditional GET whose If-None-Match matches." What matches is HTTP's:
// the field value * matches any current representation of the target (RFC 9110, 13.1.2).
emTest(
  ['event-management/etags/get-event-type-304'],
  'GET /eventTypes/{id} with If-None-Match: * answers 304 (any current representation matches)',
  async (t) => {
    const id = fixtures(t).standardEventTypeId;
    const res = await send(t, {
      method: 'GET',
      path: `/eventTypes/${encodeURIComponent(id)}`,
      headers: { 'If-None-Match': '*' },
    });
    notModified(t, { rule: 'event-management/etags/get-event-type-304', res, what: 'If-None-Match: *' });
  },
  { readOnly: true, budget: 1 },
);

// "304 Not Modified answers a conditional GET whose If-None-Match matches." In HTTP the field is a
// list of entity tags, compared weakly (RFC 9110, 13.1.2): a list holding the current tag matches,
// wherever the tag stands in it, and so does the weak form W/"…" of a strong tag.
emTest(
  ['event-management/etags/get-event-type-304'],
  'GET /eventTypes/{id} with an If-None-Match list holding the current ETag (after another tag), or its weak form, answers 304',
  async (t) => {
    const path = `/eventTypes/${encodeURIComponent(fixtures(t).standardEventTypeId)}`;
    const current = (await send(t, { method: 'GET', path })).headers.etag;
    if (!current) t.skip('GET of the type answered no ETag; judged by etags/event-type-etag-header');
    const cases: Array<[string, string]> = [[`"conformance-other", ${current}`, 'a list with the current ETag second']];
    if (current.startsWith('"')) cases.push([`W/${current}`, 'the weak form of the current ETag']);
    for (const [header, what] of cases) {
      const res = await send(t, { method: 'GET', path, headers: { 'If-None-Match': header } });
      notModified(t, {
        rule: 'event-management/etags/get-event-type-304',
        res,
        what: `If-None-Match with ${what}`,
        soft: true,
      });
    }
  },
  { readOnly: true, budget: 3 },
);
