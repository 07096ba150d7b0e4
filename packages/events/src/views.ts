/**
 * The two served versions of the one stored Event: events.k8s.io/v1 (legacy + strict rules)
 * and core/v1 (legacy rules only). Both share storage, strategy facts, table and short name.
 */
import type { FieldError, GroupKind } from '@keel/apimachinery';
import { decodeCoreV1, encodeCoreV1 } from './convert-core-v1.js';
import { decodeEventsV1, encodeEventsV1 } from './convert-events-v1.js';
import { coreV1FieldLabels, coreV1Fields, eventsV1FieldLabels, eventsV1Fields } from './field-labels.js';
import { eventTableColumns, eventTableRow } from './table.js';
import type { InternalEvent, ResourceView } from './types.js';
import { validateEventLegacy, type ReportingControllerPath } from './validation-legacy.js';
import { validateGenericMeta, validateGenericMetaUpdate } from './validation-meta.js';
import { validateEventStrictCreate, validateEventStrictUpdate } from './validation-strict.js';

/** The internal type's GroupKind, which names the object in 422 messages (most likely for both versions, §1.3). */
export const eventInvalidKind: GroupKind = { group: '', kind: 'Event' };

type Shared = Omit<
  ResourceView<InternalEvent>,
  | 'group'
  | 'apiVersion'
  | 'decode'
  | 'encode'
  | 'validateCreate'
  | 'validateUpdate'
  | 'fieldLabels'
  | 'fields'
>;

const shared: Shared = {
  version: 'v1',
  resource: 'events',
  kind: 'Event',
  listKind: 'EventList',
  singular: 'event',
  shortNames: ['ev'],
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'r2yiGXH7wu8=',
  namespaced: true,
  invalidKind: eventInvalidKind,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  // Events set nothing on create or update (not even generation).
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  labels: (e) => ({ ...(e.metadata.labels ?? {}) }),
  tableColumns: eventTableColumns,
  tableRow: eventTableRow,
};

/** rest.BeforeCreate: the strategy's errors, else the generic metadata check. */
function beforeCreate(strategyErrors: FieldError[], e: InternalEvent): FieldError[] {
  return strategyErrors.length > 0 ? strategyErrors : validateGenericMeta(e.metadata);
}

/** rest.BeforeUpdate: the generic metadata checks, then the strategy's. */
function beforeUpdate(e: InternalEvent, old: InternalEvent, strategyErrors: FieldError[]): FieldError[] {
  return [
    ...validateGenericMeta(e.metadata),
    ...validateGenericMetaUpdate(e.metadata, old.metadata),
    ...strategyErrors,
  ];
}

const eventsPath: ReportingControllerPath = 'reportingController';
const corePath: ReportingControllerPath = 'reportingComponent';

export const eventsV1View: ResourceView<InternalEvent> = {
  ...shared,
  group: 'events.k8s.io',
  apiVersion: 'events.k8s.io/v1',
  decode: decodeEventsV1,
  encode: encodeEventsV1,
  validateCreate: (e) =>
    beforeCreate([...validateEventLegacy(e, eventsPath), ...validateEventStrictCreate(e)], e),
  validateUpdate: (e, old) =>
    beforeUpdate(e, old, [...validateEventLegacy(e, eventsPath), ...validateEventStrictUpdate(e, old)]),
  fieldLabels: eventsV1FieldLabels,
  fields: eventsV1Fields,
};

export const coreV1EventView: ResourceView<InternalEvent> = {
  ...shared,
  group: '',
  apiVersion: 'v1',
  decode: decodeCoreV1,
  encode: encodeCoreV1,
  validateCreate: (e) => beforeCreate(validateEventLegacy(e, corePath), e),
  validateUpdate: (e, old) => beforeUpdate(e, old, validateEventLegacy(e, corePath)),
  fieldLabels: coreV1FieldLabels,
  fields: coreV1Fields,
};
