/**
 * The two served versions of the one stored Event: events.k8s.io/v1 (legacy + strict rules)
 * and core/v1 (legacy rules only). Both share storage, strategy facts, table and short name.
 */
import type { GroupKind } from '@keel/apimachinery';
import { beforeCreate, beforeUpdate } from '@keel/resource';
import { decodeCoreV1, encodeCoreV1 } from './convert-core-v1.js';
import { decodeEventsV1, encodeEventsV1 } from './convert-events-v1.js';
import { coreV1FieldLabels, coreV1Fields, eventsV1FieldLabels, eventsV1Fields } from './field-labels.js';
import { eventTableColumns, eventTableRow } from './table.js';
import type { InternalEvent, ResourceView } from './types.js';
import { validateEventLegacy, type ReportingControllerPath } from './validation-legacy.js';
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

const eventsPath: ReportingControllerPath = 'reportingController';
const corePath: ReportingControllerPath = 'reportingComponent';

export const eventsV1View: ResourceView<InternalEvent> = {
  ...shared,
  group: 'events.k8s.io',
  apiVersion: 'events.k8s.io/v1',
  decode: decodeEventsV1,
  encode: encodeEventsV1,
  validateCreate: (e) =>
    beforeCreate([...validateEventLegacy(e, eventsPath), ...validateEventStrictCreate(e)], e.metadata, true),
  validateUpdate: (e, old) =>
    beforeUpdate(e.metadata, old.metadata, true, [
      ...validateEventLegacy(e, eventsPath),
      ...validateEventStrictUpdate(e, old),
    ]),
  fieldLabels: eventsV1FieldLabels,
  fields: eventsV1Fields,
};

export const coreV1EventView: ResourceView<InternalEvent> = {
  ...shared,
  group: '',
  apiVersion: 'v1',
  decode: decodeCoreV1,
  encode: encodeCoreV1,
  validateCreate: (e) => beforeCreate(validateEventLegacy(e, corePath), e.metadata, true),
  validateUpdate: (e, old) => beforeUpdate(e.metadata, old.metadata, true, validateEventLegacy(e, corePath)),
  fieldLabels: coreV1FieldLabels,
  fields: coreV1Fields,
};
