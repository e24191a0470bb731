// What the events-create spec files share.
import type { RuleContext } from '../engine/rule-test.ts';
import { body } from './em-client.ts';
import { accepted, refused, storedAsSent } from '../engine/checks/index.ts';
import { type FieldCase } from './em-arbitraries.ts';
import { postEvent, standardBody } from './em-resources.ts';

export const STANDARD_FIELDS = { severity: 42, description: 'conformance event', code: 'CONF-1', acknowledged: false };

/** Sends one standard field value and judges the answer against its rule. */
export async function judgeStandardField(t: RuleContext, c: FieldCase): Promise<void> {
  const res = await postEvent(t, standardBody(t, { [c.field]: c.value }));
  if (c.valid) {
    // A value valid only on our reading of "characters" (c.reading): its refusal is a warning, and the test goes on.
    if (!accepted(t, { rule: c.rule, res, what: `POST /events with ${c.what}`, reading: c.reading })) return;
    storedAsSent(t, { rule: c.rule, what: c.field, sent: { [c.field]: c.value }, stored: body(res) });
  } else refused(t, { rule: c.rule, res, what: `POST /events with ${c.what}` });
}
