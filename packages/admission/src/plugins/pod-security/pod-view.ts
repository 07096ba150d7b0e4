/** Reading pods for the checks, and which pod updates are worth checking again. */
import type { StoredObject } from '@keel/resource';
import { arr, obj, str, strings, type Json } from '../json.js';
import type { PodView } from './check.js';

export function podView(pod: StoredObject): PodView {
  const o = obj(pod) ?? {};
  return { annotations: strings(obj(o['metadata'])?.['annotations']), spec: obj(o['spec']) ?? {} };
}

export function runtimeClassOf(view: PodView): string {
  return str(view.spec['runtimeClassName']);
}

const SECCOMP_CONTAINER_ANNOTATION = 'container.seccomp.security.alpha.kubernetes.io/';

function containerChanged(
  c: Json,
  old: Json,
  annotations: PodView['annotations'],
  oldAnnotations: PodView['annotations'],
): boolean {
  if (str(c['image']) !== str(old['image'])) return true;
  const key = SECCOMP_CONTAINER_ANNOTATION + str(c['name']);
  return annotations[key] !== oldAnnotations[key];
}

/**
 * Whether an update changes what the policy reads: as in kube, only images (and the
 * per-container seccomp annotations) of existing containers may change without a new check;
 * containers added or removed, or a new ephemeral container, are checked.
 */
export function isSignificantPodUpdate(pod: PodView, old: PodView): boolean {
  for (const field of ['containers', 'initContainers']) {
    const now = arr(pod.spec[field]);
    const before = arr(old.spec[field]);
    if (now.length !== before.length) return true;
    for (let i = 0; i < now.length; i++) {
      if (containerChanged(now[i] ?? {}, before[i] ?? {}, pod.annotations, old.annotations)) return true;
    }
  }
  const oldEphemeral = arr(old.spec['ephemeralContainers']);
  for (const c of arr(pod.spec['ephemeralContainers'])) {
    const before = oldEphemeral.find((o) => str(o['name']) === str(c['name']));
    if (!before || containerChanged(c, before, pod.annotations, old.annotations)) return true;
  }
  return false;
}
