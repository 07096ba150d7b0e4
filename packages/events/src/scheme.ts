/**
 * Where Event is registered in the real scheme, as far as decoding needs it: core v1,
 * events.k8s.io/v1 and events.k8s.io/v1beta1 (registered, not served). Only Event is listed, so
 * any other kind is refused as unregistered; the real server would instead report a failed
 * conversion for a kind registered in the same version (a Pod sent as v1).
 */
import type { KindTarget, Scheme } from '@keel/resource';

const eventScheme: Scheme = new Map(
  ['v1', 'events.k8s.io/v1', 'events.k8s.io/v1beta1'].map((gv) => [gv, new Set(['Event'])]),
);

function eventTarget(group: string): KindTarget {
  return {
    group,
    version: 'v1',
    kind: 'Event',
    scheme: eventScheme,
    internalPackage: 'k8s.io/kubernetes/pkg/apis/core',
  };
}

export const coreV1EventTarget: KindTarget = eventTarget('');
export const eventsV1EventTarget: KindTarget = eventTarget('events.k8s.io');
