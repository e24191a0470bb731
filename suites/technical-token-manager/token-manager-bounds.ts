// The token manager's bounds the suite tests, as the contract states them
// (contracts/technical-token-manager/openapi.yaml, read through contracts/facts.ts): no test types them again.
import { bodyListBound, contractBound, parameterBound } from '../../contracts/facts.ts';

const SERVICE = 'technical-token-manager';

/** User tenant IDs of one POST /oauthTokens: "at most 5 items". */
export const MAX_USER_TENANTS = bodyListBound(SERVICE, 'getOauthTokens', 'maxItems', 'userTenantIds');

/**
 * GET /userTenants `size`: its default, and "the maximum for size is stated as 500 at the parameter
 * and as 100 in its description" (`max`, `describedMax`).
 */
export const USER_TENANTS_PAGE = {
  default: parameterBound(SERVICE, 'getUserTenantsByHost', 'size', 'default'),
  max: parameterBound(SERVICE, 'getUserTenantsByHost', 'size', 'maximum'),
  describedMax: parameterBound(SERVICE, 'getUserTenantsByHost', 'size', 'x-maximum-in-description'),
};

/** "Up to 500 tenant IDs are returned". */
export const MAX_LISTED_TENANTS = contractBound(
  SERVICE,
  '#/components/schemas/UserTenantResponse/properties/userTenants',
  'maxItems',
);
