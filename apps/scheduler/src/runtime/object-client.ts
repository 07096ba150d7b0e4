import type { RestClient } from '@keel/client';
import type { KubeObject, ObjectClient, RequestOptions } from '@keel/leaderelection';

/**
 * The leader election locks' three verbs over the REST client. Errors pass through unchanged:
 * the client's StatusError carries the `reason` (NotFound, AlreadyExists, Conflict) the locks test.
 */
export function restObjectClient(client: Pick<RestClient, 'get' | 'create' | 'update'>): ObjectClient {
  const opts = (o: RequestOptions | undefined) => (o?.signal ? { signal: o.signal } : {});
  return {
    get: (path, options) => client.get<KubeObject>(path, opts(options)),
    create: (collectionPath, object, options) =>
      client.create<KubeObject>(collectionPath, object, opts(options)),
    update: (path, object, options) => client.update<KubeObject>(path, object, opts(options)),
  };
}
