/**
 * Pod create validation (pkg/apis/core/validation ValidatePodCreate / ValidatePodSpec), in Go's
 * order: volumes, containers, init containers, policies, node selector, host network, affinity,
 * gates, names, tolerations. Probes, env, security contexts and volume sources are kept but
 * not checked field by field.
 */
import {
  duplicate,
  FieldPath,
  fieldNotFound,
  forbiddenField,
  invalidValue,
  isDNS1123Label,
  isQualifiedName,
  nameIsDNSSubdomain,
  notSupported,
  required,
  validateLabels,
  type FieldError,
} from '@keel/apimachinery';
import { validateCoreMeta } from '@keel/resource';
import type { Container, Pod, PodSpec } from './pod-types.js';
import { validateResourceRequirements } from './resource-validation.js';
import { validateAffinity, validateTolerations } from './scheduling-validation.js';

const spec = FieldPath.of('spec');

/** Cluster policy pod validation enforces (kube's capabilities): --allow-privileged. */
export interface PodValidationOptions {
  readonly allowPrivileged: boolean;
}

/** The real server's defaults: privileged containers refused. */
export const DEFAULT_POD_VALIDATION: PodValidationOptions = { allowPrivileged: false };

/** ValidateSecurityContext's cluster-policy part: `privileged: true` only where the cluster allows it. */
function validatePrivileged(c: Readonly<Record<string, unknown>>, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const sc = c['securityContext'];
  const privileged = typeof sc === 'object' && sc !== null && (sc as Record<string, unknown>)['privileged'] === true;
  return privileged && !opts.allowPrivileged ? [forbiddenField(p.child('securityContext', 'privileged'), 'disallowed by cluster policy')] : [];
}

export function validateDNSLabel(value: string, p: FieldPath): FieldError[] {
  return isDNS1123Label(value).map((msg) => invalidValue(p, value, msg));
}

function validateQualifiedName(value: string, p: FieldPath): FieldError[] {
  return isQualifiedName(value).map((msg) => invalidValue(p, value, msg));
}

function validateSubdomainField(value: string | undefined, p: FieldPath): FieldError[] {
  return value ? nameIsDNSSubdomain(value, false).map((msg) => invalidValue(p, value, msg)) : [];
}

/** IsValidPortName. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const portRange = 'must be between 1 and 65535, inclusive';
const validPort = (n: number): boolean => n >= 1 && n <= 65535;
const protocols = ['SCTP', 'TCP', 'UDP'];

function validatePorts(c: Container, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (c.ports ?? []).forEach((port, i) => {
    const ip = p.index(i);
    const name = port.name ?? '';
    if (name !== '') {
      const msgs = portNameErrors(name);
      if (msgs.length > 0) errs.push(...msgs.map((m) => invalidValue(ip.child('name'), name, m)));
      else if (names.has(name)) errs.push(duplicate(ip.child('name'), name));
      else names.add(name);
    }
    const containerPort = port.containerPort ?? 0;
    if (containerPort === 0) errs.push(required(ip.child('containerPort')));
    else if (!validPort(containerPort)) errs.push(invalidValue(ip.child('containerPort'), containerPort, portRange));
    if (port.hostPort && !validPort(port.hostPort)) errs.push(invalidValue(ip.child('hostPort'), port.hostPort, portRange));
    const protocol = port.protocol ?? '';
    if (protocol === '') errs.push(required(ip.child('protocol')));
    else if (!protocols.includes(protocol)) errs.push(notSupported(ip.child('protocol'), protocol, protocols));
  });
  return errs;
}

function validateMounts(c: Container, volumes: ReadonlySet<string>, p: FieldPath): FieldError[] {
  return (c.volumeMounts ?? []).flatMap((m, i) => {
    const ip = p.index(i);
    const errs: FieldError[] = [];
    if (!m.name) errs.push(required(ip.child('name')));
    if (!volumes.has(m.name ?? '')) errs.push(fieldNotFound(ip.child('name'), m.name ?? ''));
    if (!m.mountPath) errs.push(required(ip.child('mountPath')));
    return errs;
  });
}

function oneOf(value: string, p: FieldPath, allowed: string[]): FieldError[] {
  if (value === '') return [required(p)];
  return allowed.includes(value) ? [] : [notSupported(p, value, allowed)];
}

/** validateContainerCommon. */
function validateContainerCommon(c: Container, volumes: ReadonlySet<string>, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const name = c.name ?? '';
  const errs = name === '' ? [required(p.child('name'))] : validateDNSLabel(name, p.child('name'));
  if (!c.image) errs.push(required(p.child('image')));
  errs.push(...oneOf(c.terminationMessagePolicy ?? '', p.child('terminationMessagePolicy'), ['File', 'FallbackToLogsOnError']));
  errs.push(...validatePorts(c, p.child('ports')), ...validateMounts(c, volumes, p.child('volumeMounts')));
  errs.push(...oneOf(c.imagePullPolicy ?? '', p.child('imagePullPolicy'), ['Always', 'IfNotPresent', 'Never']));
  errs.push(...validateResourceRequirements(c.resources, p.child('resources')));
  errs.push(...validatePrivileged(c, p, opts));
  return errs;
}

/** AccumulateUniqueHostPorts: hostIP/protocol/hostPort may be taken once. */
function hostPortConflicts(containers: Container[], p: FieldPath, taken = new Set<string>()): FieldError[] {
  const errs: FieldError[] = [];
  containers.forEach((c, ci) =>
    (c.ports ?? []).forEach((port, pi) => {
      if (!port.hostPort) return;
      const key = `${port.hostIP ?? ''}/${port.protocol ?? ''}/${port.hostPort}`;
      if (taken.has(key)) errs.push(duplicate(p.index(ci).child('ports').index(pi).child('hostPort'), key));
      else taken.add(key);
    }),
  );
  return errs;
}

function validateContainers(containers: Container[] | undefined, volumes: ReadonlySet<string>, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  if (!containers?.length) return [required(p)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((c, i) => {
    const ip = p.index(i);
    errs.push(...validateContainerCommon(c, volumes, ip, opts));
    if (names.has(c.name ?? '')) errs.push(duplicate(ip.child('name'), c.name ?? ''));
    else names.add(c.name ?? '');
    if (c.restartPolicy !== undefined) errs.push(forbiddenField(ip.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  return [...errs, ...hostPortConflicts(containers, p)];
}

function validateInitContainers(s: PodSpec, volumes: ReadonlySet<string>, p: FieldPath, opts: PodValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set((s.containers ?? []).map((c) => c.name ?? ''));
  (s.initContainers ?? []).forEach((c, i) => {
    const ip = p.index(i);
    errs.push(...validateContainerCommon(c, volumes, ip, opts));
    if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') errs.push(notSupported(ip.child('restartPolicy'), c.restartPolicy, ['Always']));
    if (names.has(c.name ?? '')) errs.push(duplicate(ip.child('name'), c.name ?? ''));
    else if (c.name) names.add(c.name);
    errs.push(...hostPortConflicts([c], p));
    if (c.restartPolicy === 'Always') return;
    const without = 'may not be set for init containers without restartPolicy=Always';
    if (c.lifecycle !== undefined) errs.push(forbiddenField(ip.child('lifecycle'), without));
    if (c.livenessProbe !== undefined) errs.push(forbiddenField(ip.child('livenessProbe'), without));
    if (c.readinessProbe !== undefined) errs.push(forbiddenField(ip.child('readinessProbe'), 'may not be set for init containers'));
    if (c.startupProbe !== undefined) errs.push(forbiddenField(ip.child('startupProbe'), without));
  });
  return errs;
}

/** ValidateVolumes, names only (sources are kept as sent); returns the usable volume names. */
function validateVolumes(s: PodSpec, p: FieldPath): [Set<string>, FieldError[]] {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  (s.volumes ?? []).forEach((v, i) => {
    const ip = p.index(i);
    const name = typeof v.name === 'string' ? v.name : '';
    const el: FieldError[] = Object.keys(v).some((k) => k !== 'name') ? [] : [required(ip, 'must specify a volume type')];
    el.push(...(name === '' ? [required(ip.child('name'))] : validateDNSLabel(name, ip.child('name'))));
    if (names.has(name)) el.push(duplicate(ip.child('name'), name));
    if (el.length === 0) names.add(name);
    errs.push(...el);
  });
  return [names, errs];
}

function validateHostNetwork(s: PodSpec): FieldError[] {
  if (!s.hostNetwork) return [];
  return (s.containers ?? []).flatMap((c, i) =>
    (c.ports ?? [])
      .map((port, j) => [port, j] as const)
      .filter(([port]) => (port.hostPort ?? 0) !== (port.containerPort ?? 0))
      .map(([port, j]) =>
        invalidValue(spec.child('containers').index(i).child('ports').index(j).child('containerPort'), port.containerPort ?? 0, 'must match `hostPort` when `hostNetwork` is true'),
      ),
  );
}

/** ValidatePodSpec. */
export function validatePodSpec(s: PodSpec, opts: PodValidationOptions = DEFAULT_POD_VALIDATION): FieldError[] {
  const [volumes, errs] = validateVolumes(s, spec.child('volumes'));
  errs.push(...validateContainers(s.containers, volumes, spec.child('containers'), opts));
  errs.push(...validateInitContainers(s, volumes, spec.child('initContainers'), opts));
  // Ephemeral containers are kept as sent; only the cluster's privilege policy applies to them here.
  (s.ephemeralContainers ?? []).forEach((c, i) => {
    if (typeof c === 'object' && c !== null && !Array.isArray(c)) errs.push(...validatePrivileged(c, spec.child('ephemeralContainers').index(i), opts));
  });
  errs.push(...oneOf(s.restartPolicy ?? '', spec.child('restartPolicy'), ['Always', 'OnFailure', 'Never']));
  errs.push(...oneOf(s.dnsPolicy ?? '', spec.child('dnsPolicy'), ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None']));
  errs.push(...validateLabels(s.nodeSelector, spec.child('nodeSelector')));
  errs.push(...validateHostNetwork(s));
  errs.push(...validateAffinity(s.affinity, spec.child('affinity')));
  (s.readinessGates ?? []).forEach((g, i) => errs.push(...validateQualifiedName(g.conditionType ?? '', spec.child('readinessGates').index(i).child('conditionType'))));
  const gates = new Set<string>();
  (s.schedulingGates ?? []).forEach((g, i) => {
    const ip = spec.child('schedulingGates').index(i);
    errs.push(...validateQualifiedName(g.name ?? '', ip));
    if (gates.has(g.name ?? '')) errs.push(duplicate(ip, g.name ?? ''));
    gates.add(g.name ?? '');
  });
  errs.push(...validateSubdomainField(s.serviceAccountName, spec.child('serviceAccountName')));
  errs.push(...validateSubdomainField(s.nodeName, spec.child('nodeName')));
  const deadline = s.activeDeadlineSeconds;
  if (deadline !== undefined && (deadline < 1 || deadline > 2147483647)) {
    errs.push(invalidValue(spec.child('activeDeadlineSeconds'), deadline, 'must be between 1 and 2147483647, inclusive'));
  }
  if (s.hostname) errs.push(...validateDNSLabel(s.hostname, spec.child('hostname')));
  if (s.subdomain) errs.push(...validateDNSLabel(s.subdomain, spec.child('subdomain')));
  errs.push(...validateTolerations(s.tolerations, spec.child('tolerations')));
  errs.push(...validateSubdomainField(s.priorityClassName, spec.child('priorityClassName')));
  if (s.resources) errs.push(...validateResourceRequirements(s.resources, spec.child('resources')));
  return errs;
}

/** ValidatePodCreate (the strategy's Validate). */
export function validatePodCreate(pod: Pod, opts: PodValidationOptions = DEFAULT_POD_VALIDATION): FieldError[] {
  const s = pod.spec ?? {};
  const errs = [...validateCoreMeta(pod.metadata, true, nameIsDNSSubdomain), ...validatePodSpec(s, opts)];
  if (s.ephemeralContainers?.length) errs.push(forbiddenField(spec.child('ephemeralContainers'), 'cannot be set on create'));
  if (s.nodeName && s.schedulingGates?.length) {
    errs.push(forbiddenField(spec.child('nodeName'), 'cannot be set until all schedulingGates have been cleared'));
  }
  return errs;
}
