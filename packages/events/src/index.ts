export { eventsV1View, coreV1EventView, eventInvalidKind } from './views.js';
export type {
  InternalEvent,
  ObjectMeta,
  ObjectReference,
  OwnerReference,
  ManagedFieldsEntry,
  EventSource,
  EventSeries,
  DecodeResult,
  ResourceView,
  TableColumnDefinition,
} from './types.js';
export {
  decodeEventsV1,
  encodeEventsV1,
  eventsV1ToInternal,
  eventsV1GroupVersion,
} from './convert-events-v1.js';
export { decodeCoreV1, encodeCoreV1, coreV1ToInternal, coreV1GroupVersion } from './convert-core-v1.js';
export { makeEvent } from './internal.js';
export { metaFromWire, metaToWire } from './meta-codec.js';
export { checkTypeMeta, groupVersionString, type GroupVersion } from './type-meta.js';
export {
  validateEventLegacy,
  reportingInstanceLengthLimit,
  actionLengthLimit,
  reasonLengthLimit,
  noteLengthLimit,
  type ReportingControllerPath,
} from './validation-legacy.js';
export { validateEventStrictCreate, validateEventStrictUpdate } from './validation-strict.js';
export {
  validateGenericMeta,
  validateGenericMetaUpdate,
  validateCoreMeta,
  validateCoreMetaUpdate,
} from './validation-meta.js';
export { eventsV1FieldLabels, coreV1FieldLabels, eventsV1Fields, coreV1Fields } from './field-labels.js';
export { eventTableColumns, eventTableRow, humanDuration } from './table.js';
