export { alphanumeric } from './alphanumeric.ts';
export { boundaryValues, type BoundaryValue } from './boundary-values.ts';
export { boundaryCases, contractSchema, type BoundaryCase } from './boundary-cases.ts';
export type { JsonSchema } from './json-schema.ts';
export { webLink, type WebLinkConstraints } from './web-link.ts';
export {
  listWithBadItems,
  examplesOf,
  badItemsText,
  type ListWithBadItems,
  type ListWithBadItemsConstraints,
} from './list-with-bad-items.ts';
