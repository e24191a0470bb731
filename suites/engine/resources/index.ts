// Generic tests over resource descriptions: a service describes each resource once, as data, and
// runs these over every description with `ruleTestEach` (Kubernetes' ResourceTestcase).
export type { ResourceIo, ResourceRequest } from './resource-io.ts';
export { queryEtag, type QueryEtagDescription } from './query-etag.ts';
export { followLocation, type FollowLocationOptions } from './follow-location.ts';
export { unknownAndForeign, type UnknownAndForeignDescription, type OtherTenant } from './unknown-and-foreign.ts';
export { pagesComplete, type PagesCompleteDescription } from './pages-complete.ts';
export { createdAndRead, type CreatedAndReadDescription, type CreatedAndRead } from './created-and-read.ts';
export { pageSizes, type PageSizesDescription } from './page-sizes.ts';
export { boundaryValues, type BoundaryValuesOptions } from './boundary-values.ts';
export { fieldValues, fieldValueText, type FieldValue, type FieldValuesOptions } from './field-values.ts';
