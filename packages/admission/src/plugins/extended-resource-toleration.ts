/**
 * ExtendedResourceToleration (kube's plugin/pkg/admission/extendedresourcetoleration): a pod
 * that requests an extended resource (`example.com/gpu`) tolerates the `<resource>:NoSchedule`
 * taint that nodes offering it carry, so only such pods land there.
 */
import { isExtendedResourceName, type Container, type Pod, type Toleration } from '@keel/coreapi';
import type { AdmissionPlugin } from '../plugin.js';
import { sameJson } from './json.js';
import { podOf } from './pods.js';

/** The extended resources the pod's containers and init containers request, sorted. */
function extendedRequests(pod: Pod): string[] {
  const containers: Container[] = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const names = containers.flatMap((c) =>
    Object.keys(c.resources?.requests ?? {}).filter(isExtendedResourceName),
  );
  return [...new Set(names)].sort();
}

/** Same key, operator, value and effect (Go's Toleration.MatchToleration). */
function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '') &&
    (a.effect ?? '') === (b.effect ?? '')
  );
}

/** Go's AddOrUpdateTolerationInPod: replaces a matching toleration, else appends. */
function addOrUpdate(tolerations: readonly Toleration[], toleration: Toleration): Toleration[] {
  if (tolerations.some((t) => sameToleration(t, toleration))) {
    return tolerations.map((t) =>
      sameToleration(t, toleration) && !sameJson(t, toleration) ? toleration : t,
    );
  }
  return [...tolerations, toleration];
}

export const extendedResourceToleration: AdmissionPlugin = {
  name: 'ExtendedResourceToleration',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  admit(attrs) {
    const pod = podOf(attrs);
    if (!pod) return;
    const resources = extendedRequests(pod);
    if (resources.length === 0) return;
    const spec = (pod.spec ??= {});
    spec.tolerations = resources.reduce(
      (ts, key) => addOrUpdate(ts, { key, operator: 'Exists', effect: 'NoSchedule' }),
      spec.tolerations ?? [],
    );
  },
};
