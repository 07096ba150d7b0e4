/** What the pod plugins share: which writes are about a pod, and the pod they admit. */
import type { Container, Pod } from '@keel/coreapi';
import type { AdmissionAttributes } from '../attributes.js';

/**
 * The pod of a write to pods proper (never a subresource), or undefined. The registry hands
 * admission the decoded, defaulted v1 Pod (the stored form, zero values absent), which a
 * mutating plugin edits in place.
 */
export function podOf(attrs: AdmissionAttributes): Pod | undefined {
  if (attrs.resource.group !== '' || attrs.resource.resource !== 'pods' || attrs.subresource !== '')
    return undefined;
  return attrs.object;
}

/** The old pod of an update to pods proper. */
export function oldPodOf(attrs: AdmissionAttributes): Pod | undefined {
  return podOf(attrs) && attrs.oldObject;
}

/** One container with the path Go's VisitContainersWithPath gives it. */
export interface VisitedContainer {
  readonly container: Container;
  readonly path: string;
}

/** Init containers, containers, then ephemeral containers (VisitContainersWithPath's order). */
export function allContainers(pod: Pod): VisitedContainer[] {
  const spec = pod.spec ?? {};
  const of = (list: unknown, field: string): VisitedContainer[] =>
    (Array.isArray(list) ? (list as Container[]) : []).map((container, i) => ({
      container,
      path: `spec.${field}[${i}]`,
    }));
  return [
    ...of(spec.initContainers, 'initContainers'),
    ...of(spec.containers, 'containers'),
    ...of(spec.ephemeralContainers, 'ephemeralContainers'),
  ];
}
