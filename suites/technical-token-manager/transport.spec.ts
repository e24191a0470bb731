import { observeTargetScheme } from '../engine/checks/index.ts';
import { ruleTest } from '../engine/rule-test.ts';
import { SERVICE } from './token-manager-client.ts';

ruleTest(
  SERVICE,
  ['technical-token-manager/transport/https-only'],
  'the scheme the token manager is served over (HTTPS only)',
  async (t) => {
    await observeTargetScheme(t, 'technical-token-manager/transport/https-only', '/userTenants');
  },
  { readOnly: true, budget: 1 },
);
