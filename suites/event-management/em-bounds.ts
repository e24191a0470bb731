// The event-management bounds the suite tests, as the contract states them
// (contracts/event-management/openapi.yaml, read through contracts/facts.ts): no test types them again.
import { bodyListBound, contractBound, contractNode, parameterBound } from '../../contracts/facts.ts';

const SERVICE = 'event-management';

// Pointers the boundary tests send at (boundaryCases).
export const NAME = '#/components/schemas/EventType/properties/name' as const;
export const FIELD_NAME = '#/components/schemas/Field/properties/name' as const;
export const ENUM_MEMBER = '#/components/schemas/Field/properties/values/items' as const;
export const TTL = '#/components/schemas/EventType/properties/ttl' as const;
/** A standard event field's schema. */
export const STANDARD = (field: string) => `#/components/schemas/StandardEvent/properties/${field}` as const;

/** "an event type id ... at most 64 characters" (the tenant prefix included, our reading). */
export const ID_MAX = contractBound(SERVICE, '#/components/schemas/EventType/properties/id', 'maxLength');
export const NAME_MAX = contractBound(SERVICE, NAME, 'maxLength');
export const FIELD_NAME_MAX = contractBound(SERVICE, FIELD_NAME, 'maxLength');
export const ENUM_MEMBER_MAX = contractBound(SERVICE, ENUM_MEMBER, 'maxLength');
/** "at most 100 fields". */
export const FIELDS_MAX = contractBound(SERVICE, '#/components/schemas/EventType/properties/fields', 'maxItems');
/** "ttl: Days; default 35; at most 1825". */
export const TTL_MAX = contractBound(SERVICE, TTL, 'maximum');
export const TTL_DEFAULT = contractBound(SERVICE, TTL, 'default');
/** The longest correlationId the contract takes. */
export const CORRELATION_ID_MAX = contractBound(
  SERVICE,
  '#/components/schemas/BaseEvent/properties/correlationId',
  'maxLength',
);

/** A standard event's severity: "severity outside 1-99" is refused. */
export const SEVERITY = {
  min: contractBound(SERVICE, STANDARD('severity'), 'minimum'),
  max: contractBound(SERVICE, STANDARD('severity'), 'maximum'),
};
/** The longest string a standard field takes (code 16; description and source 255). */
export const standardMaxLength = (field: 'code' | 'description' | 'source'): number =>
  contractBound(SERVICE, STANDARD(field), 'maxLength');

/** The five fields a standard event adds to BaseEvent (`severity`, `description`, …), as the contract's StandardEvent lists them. */
export const STANDARD_FIELD_NAMES = Object.keys(
  contractNode(SERVICE, '#/components/schemas/StandardEvent').properties as Record<string, unknown>,
);

/** The documented types of a custom field (`STRING`, `INTEGER`, …), as the contract's Field schema lists them. */
export const FIELD_TYPES = contractNode(SERVICE, '#/components/schemas/Field/properties/type')
  .enum as readonly string[];

/** The documented states of a job (`ACCEPTED`, `IN_PROGRESS`, …), as the contract's JobResource lists them. */
export const JOB_STATES = contractNode(SERVICE, '#/components/schemas/JobResource/properties/state')
  .enum as readonly string[];

/** "Page size events: default 20, 1 to 500". */
export const EVENTS_PAGE = {
  min: parameterBound(SERVICE, 'queryEvents', 'size', 'minimum'),
  default: parameterBound(SERVICE, 'queryEvents', 'size', 'default'),
  max: parameterBound(SERVICE, 'queryEvents', 'size', 'maximum'),
};
/** "Page size event types: default 20, 1 to 100". */
export const EVENT_TYPES_PAGE = {
  min: parameterBound(SERVICE, 'queryEventTypes', 'size', 'minimum'),
  default: parameterBound(SERVICE, 'queryEventTypes', 'size', 'default'),
  max: parameterBound(SERVICE, 'queryEventTypes', 'size', 'maximum'),
};

/** "Events per create job: 50". */
export const JOB_EVENTS_MAX = bodyListBound(SERVICE, 'createCreateEventsJob', 'maxItems', 'events');

// Bounds the document states that no OpenAPI keyword carries: the contract's `x-` extensions.

/** "Visibility delay after create or change | up to 100 ms". */
export const VISIBILITY_DELAY_MS = contractBound(SERVICE, '#/info', 'x-visibility-delay-ms');
/** "filterable fields 10" per event type. */
export const FILTERABLE_MAX = contractBound(
  SERVICE,
  '#/components/schemas/EventType/properties/fields',
  'x-max-filterable',
);
/** "inheritance depth 4". */
export const INHERITANCE_DEPTH_MAX = contractBound(
  SERVICE,
  '#/components/schemas/EventType/properties/parentId',
  'x-max-inheritance-depth',
);
/** "`assetTypeId`: equality or IN (at most 5 values)". */
export const ASSET_TYPE_ID_IN_MAX = contractBound(
  SERVICE,
  '#/components/parameters/eventsFilter',
  'x-max-asset-type-id-in-values',
);
/** "Without `timestamp` in the filter, the last 7 days are searched". */
export const DEFAULT_WINDOW_DAYS = contractBound(
  SERVICE,
  '#/components/parameters/eventsFilter',
  'x-default-window-days',
);
/** "Events per type above which it cannot be updated | 300,000". */
export const EVENTS_FOR_UPDATE_MAX = contractBound(
  SERVICE,
  '#/paths/~1eventTypes~1{eventTypeId}/patch',
  'x-max-events-for-update',
);

/**
 * The reading a refusal of a query parameter below its documented bounds rests on (size below 1, a
 * negative page, or not an integer): the document states the bounds but lists no 400 for them; a
 * deployment taking the default instead reads it too.
 */
export const OUT_OF_BOUNDS = 'out-of-bounds-param-400';
