import { observeTargetScheme } from '../engine/checks/index.ts';
import { ruleTest } from '../engine/rule-test.ts';

ruleTest(
  'notification',
  ['notification/general/https-only'],
  'the scheme the notification service is served over (HTTPS only)',
  async (t) => {
    await observeTargetScheme(t, 'notification/general/https-only', '/communicationchannel/');
  },
  { readOnly: true, budget: 1 },
);
