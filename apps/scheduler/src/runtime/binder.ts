import type { RestClient } from '@keel/client';
import type { BindPlugin, PluginFactory } from '../framework/interface.js';
import { Status, type MaybeStatus } from '../framework/status.js';
import type { Pod } from '../framework/types.js';

export const DEFAULT_BINDER = 'DefaultBinder';

/** The Binding DefaultBinder posts: the pod's name, namespace and UID (a precondition) and the node. */
export function bindingFor(pod: Pod, nodeName: string): Record<string, unknown> {
  const { name = '', namespace = '', uid } = pod.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name, namespace, ...(uid ? { uid } : {}) },
    target: { apiVersion: 'v1', kind: 'Node', name: nodeName },
  };
}

export function bindingPath(pod: Pod): string {
  const { name = '', namespace = '' } = pod.metadata;
  return `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/binding`;
}

/**
 * kube's DefaultBinder: `POST pods/<name>/binding`. The API server sets `spec.nodeName` atomically
 * and refuses a pod that is already assigned or being deleted; any failure is an Error status, so
 * the pod goes back to the queue and the cache forgets its place.
 */
export function defaultBinder(client: Pick<RestClient, 'create'>): PluginFactory {
  const plugin: BindPlugin = {
    name: DEFAULT_BINDER,
    async bind(_state, pod, nodeName, signal): Promise<MaybeStatus> {
      try {
        await client.create<void>(bindingPath(pod), bindingFor(pod, nodeName), {
          discardBody: true,
          ...(signal ? { signal } : {}),
        });
        return undefined;
      } catch (err) {
        return Status.fromError(err);
      }
    },
  };
  return () => plugin;
}
