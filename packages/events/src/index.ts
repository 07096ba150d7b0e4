export { eventsV1View, coreV1EventView, eventInvalidKind } from './views.js';
export type { InternalEvent, EventSource, EventSeries, ResourceView } from './types.js';
export { decodeEventsV1, encodeEventsV1, eventsV1ToInternal } from './convert-events-v1.js';
export { decodeCoreV1, encodeCoreV1, coreV1ToInternal } from './convert-core-v1.js';
export { coreV1EventTarget, eventsV1EventTarget } from './scheme.js';
export { eventsV1EventSpec, coreV1EventSpec, eventDecodeOptions } from './wire-schema.js';
export { makeEvent } from './internal.js';
export {
  validateEventLegacy,
  reportingInstanceLengthLimit,
  actionLengthLimit,
  reasonLengthLimit,
  noteLengthLimit,
  type ReportingControllerPath,
} from './validation-legacy.js';
export { validateEventStrictCreate, validateEventStrictUpdate } from './validation-strict.js';
export { eventsV1FieldLabels, coreV1FieldLabels, eventsV1Fields, coreV1Fields } from './field-labels.js';
export { eventTableColumns, eventTableRow } from './table.js';
