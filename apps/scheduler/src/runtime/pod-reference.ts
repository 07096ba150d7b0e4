import type { Pod } from '../framework/types.js';
import type { ObjectReference } from './events.js';

/** The ObjectReference events carry for a pod (reference.GetReference). */
export function podReference(pod: Pod): ObjectReference {
  const m = pod.metadata;
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    name: m.name ?? '',
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}
