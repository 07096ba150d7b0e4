/**
 * Field selector labels per version (api-semantics §5.2) and the values an Event has for them
 * (pkg/registry/core/event ToSelectableFields, with events.k8s.io/v1's label conversion applied
 * backwards so each version's names can be matched directly).
 */
import type { ObjectReference } from '@keel/resource';
import type { InternalEvent } from './types.js';

const refFields = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

export const eventsV1FieldLabels: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'reason',
  'type',
  'reportingController',
  'source',
  ...refFields.map((f) => `regarding.${f}`),
];

export const coreV1FieldLabels: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  ...refFields.map((f) => `involvedObject.${f}`),
  'reason',
  'reportingComponent',
  'source',
  'type',
];

function refValues(prefix: string, ref: ObjectReference | undefined): Record<string, string> {
  return Object.fromEntries(refFields.map((f) => [`${prefix}.${f}`, ref?.[f] ?? '']));
}

/** `source` falls back to the reporting controller when source.component is empty. */
function common(e: InternalEvent): Record<string, string> {
  return {
    'metadata.name': e.metadata.name ?? '',
    'metadata.namespace': e.metadata.namespace ?? '',
    reason: e.reason ?? '',
    type: e.type ?? '',
    source: e.source?.component || e.reportingComponent || '',
  };
}

export function eventsV1Fields(e: InternalEvent): Record<string, string> {
  return {
    ...common(e),
    reportingController: e.reportingComponent ?? '',
    ...refValues('regarding', e.involvedObject),
  };
}

export function coreV1Fields(e: InternalEvent): Record<string, string> {
  return {
    ...common(e),
    reportingComponent: e.reportingComponent ?? '',
    ...refValues('involvedObject', e.involvedObject),
  };
}
