import fc from 'fast-check';
import { accepted, refused, answeredByReading, withCode, CLIENT_ERRORS } from '../engine/checks/index.ts';
import { auditTime, send, notificationTest as test } from './notification-client.ts';
import { searchAudit, wideRange } from './audit-search.ts';
import { fieldValues } from '../engine/resources/index.ts';

// The audit search changes nothing: these tests are read-only.

/** Times in formats other than `yyyy-MM-dd HH:mm:ss`, built from one instant. */
function wrongFormats(ms: number): string[] {
  const iso = new Date(ms).toISOString();
  const [date, time] = [iso.slice(0, 10), iso.slice(11, 19)];
  const [y, mo, d] = date.split('-');
  return [
    iso,
    `${date}T${time}`,
    `${d}-${mo}-${y} ${time}`,
    `${y}/${mo}/${d} ${time}`,
    `${date} ${time.slice(0, 5)}`,
    date,
    `${date}  ${time}`,
  ];
}

test(
  ['notification/audit/time-range-format', 'notification/errors/code-invalid-request-body-property'],
  'startTimeRange and endTimeRange are taken as yyyy-MM-dd HH:mm:ss only (other formats, then a property)',
  async (t) => {
    const now = Date.now();
    // A number is not the string the document declares: refused.
    for (const [i, value] of [now, 20260101].entries()) {
      const field = i % 2 ? 'endTimeRange' : 'startTimeRange';
      refused(t, {
        rule: 'notification/audit/time-range-format',
        res: await searchAudit(t, { [field]: value }),
        what: `${field} ${JSON.stringify(value)}`,
        ...withCode('invalidRequestBodyProperty'),
      });
    }
    // "both formatted yyyy-MM-dd HH:mm:ss" fixes what a client sends; a lenient parser may take another
    // form of the same time too. Refusing it is our reading.
    for (const [i, value] of wrongFormats(now).entries()) {
      const field = i % 2 ? 'endTimeRange' : 'startTimeRange';
      answeredByReading(t, {
        rule: 'notification/audit/time-range-format',
        res: await searchAudit(t, { [field]: value }),
        what: `${field} ${JSON.stringify(value)}`,
        reading: 'time-format-strict',
        allowed: [200, ...CLIENT_ERRORS],
        wanted: 400,
        ...withCode('invalidRequestBodyProperty'),
      });
    }
    await t.property(
      fc.integer({ min: 0, max: 3 * 24 * 3600 }),
      async (s) => {
        const value = auditTime(now - s * 1000);
        accepted(t, {
          rule: 'notification/audit/time-range-format',
          res: await searchAudit(t, { startTimeRange: value }),
          what: `startTimeRange ${JSON.stringify(value)}`,
          statuses: [200],
        });
      },
      { rule: 'notification/audit/time-range-format', runs: Math.min(t.session.context.runs, 5) },
    );
  },
  { readOnly: true, budget: 9, budgetPerRun: 1 },
);

test(
  ['notification/audit/time-range-required', 'notification/errors/code-missing-request-body-property'],
  'an audit search without startTimeRange or endTimeRange is refused',
  async (t) => {
    const { startTimeRange, endTimeRange } = wideRange();
    for (const [what, body] of [
      ['no startTimeRange', { endTimeRange }],
      ['no endTimeRange', { startTimeRange }],
      ['no time range', { status: 'sent' }],
    ] as const) {
      // "required in practice" is not "required": a search over every entry is the other reading.
      const res = await send(t, { method: 'POST', path: '/audit/searchauditstatus', json: body });
      answeredByReading(t, {
        rule: 'notification/audit/time-range-required',
        res,
        what: `a search with ${what}`,
        reading: 'range-absent-refused',
        allowed: [400, 200],
        wanted: 400,
        ...withCode('missingRequestBodyProperty'),
      });
    }
  },
  { readOnly: true, budget: 3 },
);

test(
  ['notification/audit/filter-types', 'notification/errors/code-invalid-request-body-property'],
  'an audit filter of the wrong JSON type is refused',
  async (t) => {
    const cases: Array<[string, unknown]> = [
      ['messageCategoryId', '12'],
      ['messageCategoryId', 1.5],
      ['status', 5],
      ['fromApp', true],
      ['fromUser', ['x']],
      ['fromApp', { name: 'x' }],
    ];
    await fieldValues(t, {
      rule: 'notification/audit/filter-types',
      field: 'filter',
      cases: cases.map(([field, value]) => ({ value, valid: false, field, what: `${field} ${JSON.stringify(value)}` })),
      send: (c) => searchAudit(t, { [c.field]: c.value }),
      refusal: () => withCode('invalidRequestBodyProperty'),
    });
  },
  { readOnly: true, budget: 6 },
);
