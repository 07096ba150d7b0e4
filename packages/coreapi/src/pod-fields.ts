/**
 * Pod field selectors (core/v1 conversion's label func and the registry's ToSelectableFields;
 * api-semantics §5.2) and the strategic-merge-patch strategies of the Pod's lists.
 */
import { objectMetaSmpSchema, type FieldLabelConverter, type SmpSchema } from '@keel/apimachinery';
import type { Pod } from './pod-types.js';

export const podFieldLabels: readonly string[] = [
  'metadata.name',
  'metadata.namespace',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.schedulerName',
  'spec.serviceAccountName',
  'spec.hostNetwork',
  'status.phase',
  'status.podIP',
  'status.podIPs',
  'status.nominatedNodeName',
  'spec.host',
];

/** Old v1 clients send spec.host; it means spec.nodeName. */
export const convertPodFieldLabel: FieldLabelConverter = (field, value) => {
  if (field === 'spec.host') return { field: 'spec.nodeName', value };
  if (podFieldLabels.includes(field)) return { field, value };
  throw new Error(`field label not supported: ${field}`);
};

/**
 * The values selectors match. spec.host is included for callers that match labels without
 * converting them first; status.podIPs matches the first IP, like status.podIP.
 */
export function podFields(pod: Pod): Record<string, string> {
  const spec = pod.spec ?? {};
  const status = pod.status ?? {};
  const podIP = status.podIPs?.[0]?.ip ?? '';
  return {
    'metadata.name': pod.metadata.name ?? '',
    'metadata.namespace': pod.metadata.namespace ?? '',
    'spec.nodeName': spec.nodeName ?? '',
    'spec.restartPolicy': spec.restartPolicy ?? '',
    'spec.schedulerName': spec.schedulerName ?? '',
    'spec.serviceAccountName': spec.serviceAccountName ?? '',
    'spec.hostNetwork': String(spec.hostNetwork === true),
    'status.phase': status.phase ?? '',
    'status.podIP': podIP,
    'status.podIPs': podIP,
    'status.nominatedNodeName': status.nominatedNodeName ?? '',
    'spec.host': spec.nodeName ?? '',
  };
}

const containerLists = ['initContainers', 'containers', 'ephemeralContainers'];
const containerFields: Record<string, string> = { ports: 'containerPort', env: 'name', volumeMounts: 'mountPath', volumeDevices: 'devicePath' };

/**
 * The Pod's patchStrategy/patchMergeKey tags (k8s.io/api core/v1 types.go). Lists without a
 * tag (spec.tolerations, spec.readinessGates, status.containerStatuses) are replaced whole.
 */
export const podSmpSchema: SmpSchema = {
  ...objectMetaSmpSchema,
  'spec.volumes': { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
  ...Object.fromEntries(containerLists.map((l) => [`spec.${l}`, 'name'])),
  ...Object.fromEntries(containerLists.flatMap((l) => Object.entries(containerFields).map(([f, key]) => [`spec.${l}.${f}`, key]))),
  'spec.imagePullSecrets': 'name',
  'spec.hostAliases': 'ip',
  'spec.topologySpreadConstraints': 'topologyKey',
  'spec.schedulingGates': 'name',
  'spec.resourceClaims': { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
  'status.conditions': 'type',
  'status.podIPs': 'ip',
  'status.hostIPs': 'ip',
  'status.resourceClaimStatuses': { patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
};
