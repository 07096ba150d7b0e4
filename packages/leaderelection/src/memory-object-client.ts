/**
 * An in-memory {@link ObjectClient} with the server's optimistic concurrency: every write bumps a
 * resourceVersion counter, an update naming a stale resourceVersion is a 409 Conflict, a second
 * create is a 409 AlreadyExists. Errors are real apimachinery StatusErrors. It is the unit-test
 * seam for the locks and the elector (and for code that runs an elector).
 */
import { randomUUID } from 'node:crypto';
import {
  alreadyExists,
  badRequest,
  conflictModified,
  notFound,
  type GroupResource,
} from '@keel/apimachinery';
import type { KubeObject, ObjectClient, RequestOptions } from './object-client.js';

/** `/api/v1/namespaces/ns/endpoints/name` or `/apis/g/v/namespaces/ns/leases/name` parts. */
function parsePath(path: string): { group: string; resource: string; name: string | undefined } {
  const parts = path.split('/').filter((p) => p !== '');
  const group = parts[0] === 'apis' ? (parts[1] ?? '') : '';
  const rest = parts.slice(parts[0] === 'apis' ? 3 : 2);
  if (rest[0] !== 'namespaces' || rest.length < 3 || rest.length > 4)
    throw badRequest(`unsupported path ${path}`);
  return {
    group,
    resource: rest[2] ?? '',
    name: rest[3] === undefined ? undefined : decodeURIComponent(rest[3]),
  };
}

export class MemoryObjectClient implements ObjectClient {
  private readonly objects = new Map<string, KubeObject>();
  private revision = 0;

  /** The stored object at `path` (a copy), for assertions. */
  peek(path: string): KubeObject | undefined {
    const o = this.objects.get(path);
    return o === undefined ? undefined : structuredClone(o);
  }

  get(path: string, options?: RequestOptions): Promise<KubeObject> {
    return this.run(options, () => {
      const { group, resource, name } = parsePath(path);
      const stored = this.objects.get(path);
      if (!stored) throw notFound({ group, resource }, name ?? '');
      return structuredClone(stored);
    });
  }

  create(collectionPath: string, object: KubeObject, options?: RequestOptions): Promise<KubeObject> {
    return this.run(options, () => {
      const { group, resource } = parsePath(`${collectionPath}/x`);
      const name = object.metadata?.name ?? '';
      const path = `${collectionPath}/${encodeURIComponent(name)}`;
      if (this.objects.has(path)) throw alreadyExists({ group, resource }, name);
      const stored: KubeObject = structuredClone(object);
      stored.metadata = {
        ...stored.metadata,
        uid: randomUUID(),
        resourceVersion: this.nextVersion(),
        creationTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      };
      this.objects.set(path, stored);
      return structuredClone(stored);
    });
  }

  update(path: string, object: KubeObject, options?: RequestOptions): Promise<KubeObject> {
    return this.run(options, () => {
      const { group, resource, name } = parsePath(path);
      const qr: GroupResource = { group, resource };
      const stored = this.objects.get(path);
      if (!stored) throw notFound(qr, name ?? '');
      const wanted = object.metadata?.resourceVersion;
      // An update without a resourceVersion is unconditional, as for most real resources.
      if (wanted !== undefined && wanted !== '' && wanted !== stored.metadata?.resourceVersion) {
        throw conflictModified(qr, name ?? '');
      }
      const next: KubeObject = structuredClone(object);
      next.metadata = {
        ...next.metadata,
        uid: stored.metadata?.uid,
        creationTimestamp: stored.metadata?.creationTimestamp,
        resourceVersion: this.nextVersion(),
      };
      this.objects.set(path, next);
      return structuredClone(next);
    });
  }

  private nextVersion(): string {
    this.revision += 1;
    return String(this.revision);
  }

  /** Answers asynchronously, like a real client, so concurrent callers interleave. */
  private async run<T>(options: RequestOptions | undefined, op: () => T): Promise<T> {
    await Promise.resolve();
    options?.signal?.throwIfAborted();
    return op();
  }
}
