/**
 * What the server fills in on a Pod: the core/v1 defaulting functions (run on every decode),
 * the v1 ↔ internal conversions that keep podIP/podIPs and serviceAccount/serviceAccountName
 * in step, and the strategy's QoS class.
 */
import { compareQuantity, parseQuantity, type Quantity } from '@keel/resource';
import type { Container, Pod, PodSpec, PodStatus, ResourceList, ResourceRequirements } from './pod-types.js';

export const defaultSchedulerName = 'default-scheduler';
export const defaultTerminationGracePeriodSeconds = 30;

/** parsers.ParseImageName's tag: `latest` when neither tag nor digest is given. */
function imageTag(image: string): string {
  if (image.trim() === '' || image !== image.trim()) return '';
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const colon = name.lastIndexOf(':');
  const tag = colon > name.lastIndexOf('/') ? name.slice(colon + 1) : '';
  return tag === '' && at < 0 ? 'latest' : tag;
}

const probeDefaults = { timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 } as const;

function defaultProbe(probe: Record<string, unknown> | undefined): void {
  if (!probe) return;
  for (const [k, v] of Object.entries(probeDefaults)) if (!probe[k]) probe[k] = v;
  const http = probe['httpGet'];
  if (typeof http === 'object' && http !== null && !Array.isArray(http)) {
    const h = http as Record<string, unknown>;
    h['path'] ||= '/';
    h['scheme'] ||= 'HTTP';
  }
}

/** SetDefaults_Container, SetDefaults_ContainerPort, SetDefaults_Probe, and Pod's requests-from-limits. */
function defaultContainer(c: Container, hostNetwork: boolean): void {
  if (c.resources?.limits) {
    c.resources.requests = { ...c.resources.limits, ...(c.resources.requests ?? {}) };
  }
  c.imagePullPolicy ||= imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  c.terminationMessagePath ||= '/dev/termination-log';
  c.terminationMessagePolicy ||= 'File';
  for (const port of c.ports ?? []) {
    port.protocol ||= 'TCP';
    if (hostNetwork && !port.hostPort && port.containerPort) port.hostPort = port.containerPort;
  }
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
}

/** Convert_v1_PodStatus_To_core_PodStatus and back: podIP is podIPs[0] (podIP wins a conflict). */
function syncIPs(status: PodStatus, single: 'podIP' | 'hostIP', plural: 'podIPs' | 'hostIPs'): void {
  const one = status[single];
  const many = status[plural];
  if (one && (!many?.length || many[0]?.ip !== one)) status[plural] = [{ ip: one }];
  const first = status[plural]?.[0]?.ip;
  if (first) status[single] = first;
}

/** SetDefaults_Pod and SetDefaults_PodSpec (run on every decode, as Go's codec does). */
export function defaultPod(pod: Pod): void {
  const spec: PodSpec = (pod.spec ??= {});
  for (const c of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) defaultContainer(c, spec.hostNetwork === true);
  spec.enableServiceLinks ??= true;
  spec.dnsPolicy ||= 'ClusterFirst';
  spec.restartPolicy ||= 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= defaultTerminationGracePeriodSeconds;
  spec.schedulerName ||= defaultSchedulerName;
  if (spec.serviceAccount && !spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
  if (pod.status) {
    syncIPs(pod.status, 'podIP', 'podIPs');
    syncIPs(pod.status, 'hostIP', 'hostIPs');
  }
}

const qosResources = new Set(['cpu', 'memory']);

function addAll(total: Map<string, Quantity>, list: ResourceList | undefined, found?: Set<string>): void {
  for (const [name, text] of Object.entries(list ?? {})) {
    if (!qosResources.has(name)) continue;
    const q = parseQuantity(text);
    if (q.nanos <= 0n) continue;
    found?.add(name);
    const prev = total.get(name);
    total.set(name, { nanos: (prev?.nanos ?? 0n) + q.nanos, format: q.format });
  }
}

/** qos.ComputePodQOS: BestEffort, Burstable or Guaranteed. */
export function computePodQOS(pod: Pod): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  const requests = new Map<string, Quantity>();
  const limits = new Map<string, Quantity>();
  let guaranteed = true;
  const spec = pod.spec ?? {};
  const sources: (ResourceRequirements | undefined)[] = spec.resources
    ? [spec.resources]
    : [...(spec.containers ?? []), ...(spec.initContainers ?? [])].map((c) => c.resources);
  for (const r of sources) {
    addAll(requests, r?.requests);
    const found = new Set<string>();
    addAll(limits, r?.limits, found);
    if (!found.has('cpu') || !found.has('memory')) guaranteed = false;
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      const lim = limits.get(name);
      if (!lim || compareQuantity(lim, req) !== 0) guaranteed = false;
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/**
 * The strategy's mutatePodAffinity (MatchLabelKeysInPodAffinity, on by default): each
 * matchLabelKeys / mismatchLabelKeys key the pod has becomes an In / NotIn expression of the
 * term's labelSelector, so the scheduler only reads the selector.
 */
export function mergeMatchLabelKeys(pod: Pod): void {
  const labels = pod.metadata.labels ?? {};
  const rules = [pod.spec?.affinity?.podAffinity, pod.spec?.affinity?.podAntiAffinity];
  const terms = rules.flatMap((r) => [
    ...(r?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...(r?.preferredDuringSchedulingIgnoredDuringExecution ?? []).flatMap((w) => (w.podAffinityTerm ? [w.podAffinityTerm] : [])),
  ]);
  for (const term of terms) {
    const selector = term.labelSelector;
    if (!selector) continue;
    for (const [keys, operator] of [[term.matchLabelKeys, 'In'], [term.mismatchLabelKeys, 'NotIn']] as const) {
      for (const key of keys ?? []) {
        const value = Object.hasOwn(labels, key) ? labels[key] : undefined;
        if (value !== undefined) selector.matchExpressions = [...(selector.matchExpressions ?? []), { key, operator, values: [value] }];
      }
    }
  }
}
