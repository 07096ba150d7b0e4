/** The namespace a pod plugin reads its annotations from: the watched copy, else the store. */
import { notFound } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionPluginDeps, ObjectLookup } from '../registry.js';

export type NamespaceReader = (name: string) => Promise<StoredObject>;

/**
 * Asks for the namespaces copy when the chain is built (so the server keeps it); a namespace
 * created a moment ago may not be in it yet, so a miss reads the store before giving up.
 */
export function namespaceReader(deps: AdmissionPluginDeps): NamespaceReader {
  const copy: ObjectLookup = deps.objects('namespaces');
  return async (name) => {
    const ns = copy.get('', name) ?? (await deps.read('namespaces', '', name));
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, name);
    return ns;
  };
}

/** The namespace's annotation `key`, undefined when it is not set at all. */
export function annotation(ns: StoredObject, key: string): string | undefined {
  const v = ns.metadata.annotations?.[key];
  return typeof v === 'string' ? v : undefined;
}
