/**
 * SecurityContextDeny (kube's plugin/pkg/admission/securitycontext/scdeny): refuses pods that
 * set the security-context fields that would let them choose their own identity on the node:
 * the pod's supplementalGroups, seLinuxOptions, runAsUser and fsGroup, a container's
 * seLinuxOptions and runAsUser.
 */
import { forbidden } from '@keel/apimachinery';
import type { Container } from '@keel/coreapi';
import type { AdmissionPlugin } from '../plugin.js';
import { obj } from './json.js';
import { podOf } from './pods.js';

/** JSON name → Go field name, in the order the real plugin checks them. */
const POD_FIELDS: readonly (readonly [string, string])[] = [
  ['supplementalGroups', 'SupplementalGroups'],
  ['seLinuxOptions', 'SELinuxOptions'],
  ['runAsUser', 'RunAsUser'],
  ['fsGroup', 'FSGroup'],
];
const CONTAINER_FIELDS = POD_FIELDS.filter(([f]) => f === 'seLinuxOptions' || f === 'runAsUser');

/** The refusal, if any, in the real plugin's order: pod first, then init containers, then containers. */
function deniedField(spec: {
  securityContext?: unknown;
  initContainers?: Container[];
  containers?: Container[];
}): string | undefined {
  const podContext = obj(spec.securityContext);
  const podField = POD_FIELDS.find(([f]) => podContext?.[f] != null);
  if (podField) return `pod.Spec.SecurityContext.${podField[1]}`;
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
    const context = obj(c['securityContext']);
    const field = CONTAINER_FIELDS.find(([f]) => context?.[f] != null);
    if (field) return `SecurityContext.${field[1]}`;
  }
  return undefined;
}

export const securityContextDeny: AdmissionPlugin = {
  name: 'SecurityContextDeny',
  handles: (op) => op === 'CREATE' || op === 'UPDATE',
  validate(attrs) {
    const pod = podOf(attrs);
    if (!pod) return;
    const field = deniedField(pod.spec ?? {});
    if (field)
      throw forbidden({ group: '', resource: 'pods' }, pod.metadata.name ?? '', `${field} is forbidden`);
  },
};
