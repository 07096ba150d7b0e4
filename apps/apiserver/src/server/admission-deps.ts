/**
 * What admission plugins read and write besides the request's own object: the server's watched
 * copies, single reads and namespace lists from the store, and a status compare-and-swap (the
 * quota plugin charges a quota this way before the object it admits is stored). Every served
 * resource is stored under `/<resource>`.
 */
import type { AdmissionPluginDeps } from '@keel/admission';
import { conflictModified } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { Storage } from '@keel/storage';
import { interpretStorageError } from '../registry/interpret-storage-error.js';
import type { ServerInformers } from './informers.js';

const keyOf = (resource: string, namespace: string, name: string): string =>
  namespace === '' ? `/${resource}/${name}` : `/${resource}/${namespace}/${name}`;

/**
 * What the server provides from elsewhere: its authorizer, the served kinds, the namespace
 * store, its metrics.
 */
type ServerProvided = Pick<
  AdmissionPluginDeps,
  'authorizer' | 'resourcesFor' | 'createNamespace' | 'metrics'
>;

export function admissionDeps(
  storage: Storage,
  informers: ServerInformers,
  provided: ServerProvided,
): AdmissionPluginDeps {
  return {
    ...provided,
    objects: (resource) => informers.lookup(`/${resource}`),
    read: (resource, namespace, name) =>
      storage.get<StoredObject>(keyOf(resource, namespace, name), { ignoreNotFound: true }),
    list: async (resource, namespace) =>
      (await storage.list<StoredObject>(`/${resource}/${namespace}`)).items,
    async replaceStatus(resource, obj) {
      const namespace = obj.metadata.namespace ?? '';
      const name = obj.metadata.name ?? '';
      const qr = { group: '', resource };
      const expected = obj.metadata.resourceVersion;
      try {
        return await storage.guaranteedUpdate<StoredObject>(keyOf(resource, namespace, name), (current) => {
          // Without ignoreNotFound the store calls this only with an object.
          const stored = current as StoredObject;
          if (stored.metadata.resourceVersion !== expected) throw conflictModified(qr, name);
          const next = { ...stored, status: (obj as { status?: unknown }).status } as StoredObject;
          delete next.metadata.resourceVersion;
          return next;
        });
      } catch (err) {
        throw interpretStorageError(err, qr, name);
      }
    },
  };
}
