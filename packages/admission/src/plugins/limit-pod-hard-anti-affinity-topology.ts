/**
 * LimitPodHardAntiAffinityTopology (kube's plugin/pkg/admission/antiaffinity): a pod's required
 * anti-affinity may only spread over nodes (`kubernetes.io/hostname`), so one pod cannot keep a
 * whole zone or region to itself.
 */
import { forbidden } from '@keel/apimachinery';
import type { AdmissionPlugin } from '../plugin.js';
import { podOf } from './pods.js';

const LABEL_HOSTNAME = 'kubernetes.io/hostname';

export const limitPodHardAntiAffinityTopology: AdmissionPlugin = {
  name: 'LimitPodHardAntiAffinityTopology',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  validate(attrs) {
    const pod = podOf(attrs);
    if (!pod) return;
    const terms = pod.spec?.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
    const wide = terms.find((t) => (t.topologyKey ?? '') !== LABEL_HOSTNAME);
    if (wide) {
      throw forbidden(
        { group: '', resource: 'pods' },
        pod.metadata.name ?? '',
        `affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey ${wide.topologyKey ?? ''} but only key ${LABEL_HOSTNAME} is allowed`,
      );
    }
  },
};
