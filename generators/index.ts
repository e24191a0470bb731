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
export { characters, describeValue } from './characters.ts';
export { valueCases, type ValueCase, type ValueCasesConstraints } from './value-cases.ts';
export {
  fieldTypeExamples,
  fieldTypeValue,
  type FieldTypeValue,
  type FieldTypeValueConstraints,
} from './field-type-value.ts';
export {
  timestampOf,
  utcTimestamp,
  UTC_TIMESTAMP_FORMS,
  type UtcTimestamp,
  type UtcTimestampConstraints,
  type UtcTimestampForm,
} from './utc-timestamp.ts';
