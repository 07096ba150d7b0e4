import { notFound, type StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../attributes.js';
import type { AdmissionPluginDeps, ObjectLookup } from '../registry.js';

export const NAMESPACES = { group: '', resource: 'namespaces' } as const;

/** The real server's 404 for a namespace that is not there: `namespaces "x" not found`. */
export const namespaceNotFound = (name: string): StatusError => notFound(NAMESPACES, name);

/** A Namespace itself (any of its subresources): the namespace plugins never judge those. */
export function isNamespaceKind(attrs: AdmissionAttributes): boolean {
  return attrs.kind.group === '' && attrs.kind.kind === 'Namespace';
}

/** What the namespace plugins read: the server's copy, and the store when the copy may lag. */
export interface NamespaceSource {
  readonly copy: ObjectLookup;
  live(name: string): Promise<StoredObject | undefined>;
}

export function namespaceSource(deps: AdmissionPluginDeps): NamespaceSource {
  return {
    copy: deps.objects('namespaces'),
    live: (name) => deps.read('namespaces', '', name),
  };
}

/**
 * The namespace from the copy, else from the store itself: a namespace created a moment ago may
 * not be in the copy yet, and refusing writes into it would be wrong.
 */
export async function findNamespace(
  source: NamespaceSource,
  name: string,
): Promise<StoredObject | undefined> {
  return source.copy.get('', name) ?? (await source.live(name));
}
