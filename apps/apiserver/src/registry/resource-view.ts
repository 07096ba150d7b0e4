import type { ResourceView as BaseResourceView, StoredObject } from '@keel/resource';

/**
 * The registry serves resources through @keel/resource's views: one API group/version's wire form
 * and rules (decode, encode, prepare, validate, field labels, table columns). Several views may
 * share one store (core v1 Events and events.k8s.io/v1 Events).
 */
export type { Decoded, ManagedFieldsEntry, ObjectMeta, TableColumn } from '@keel/resource';
export type InternalObject = StoredObject;
export type ResourceView<I extends InternalObject = InternalObject> = BaseResourceView<I>;

export function apiVersionOf(view: { group: string; version: string }): string {
  return view.group === '' ? view.version : `${view.group}/${view.version}`;
}

export function qualifiedResource(view: { group: string; resource: string }): {
  group: string;
  resource: string;
} {
  return { group: view.group, resource: view.resource };
}
