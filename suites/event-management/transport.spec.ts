import { observeTargetScheme } from '../engine/checks/index.ts';
import { ruleTest } from '../engine/rule-test.ts';

ruleTest(
  'event-management',
  ['event-management/general/https-only'],
  'the scheme event management is served over (HTTPS only)',
  async (t) => {
    await observeTargetScheme(t, 'event-management/general/https-only');
  },
  { readOnly: true, budget: 1 },
);
