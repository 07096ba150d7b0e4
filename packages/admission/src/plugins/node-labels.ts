/**
 * Which Node labels a node agent may set on its own Node (kube's getForbiddenLabels with the
 * kubelet's well-known labels): none under node-restriction.kubernetes.io, and under the
 * kubernetes.io and k8s.io domains only the kubelet's own.
 */

const NODE_RESTRICTION_DOMAIN = 'node-restriction.kubernetes.io';

const KUBELET_LABELS = new Set([
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'kubernetes.io/os',
  'kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
]);

const KUBELET_LABEL_DOMAINS = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function inDomain(domain: string, of: string): boolean {
  return domain === of || domain.endsWith(`.${of}`);
}

function isKubeletLabel(key: string): boolean {
  const domain = domainOf(key);
  return KUBELET_LABELS.has(key) || KUBELET_LABEL_DOMAINS.some((d) => inDomain(domain, d));
}

function isForbidden(key: string): boolean {
  const domain = domainOf(key);
  if (inDomain(domain, NODE_RESTRICTION_DOMAIN)) return true;
  const platform = inDomain(domain, 'kubernetes.io') || inDomain(domain, 'k8s.io');
  return platform && !isKubeletLabel(key);
}

/** The keys added, removed or changed between the two label sets that a node may not touch, sorted. */
export function forbiddenLabelChanges(now: Record<string, string>, before: Record<string, string>): string[] {
  const changed = new Set<string>();
  for (const [k, v] of Object.entries(now)) if (before[k] !== v) changed.add(k);
  for (const [k, v] of Object.entries(before)) if (now[k] !== v) changed.add(k);
  return [...changed].filter(isForbidden).sort();
}
