/**
 * Baseline checks on a pod's security settings: added capabilities, AppArmor, SELinux, /proc
 * mounts, seccomp and sysctls.
 */
import { arr, obj, str, type Json } from '../json.js';
import {
  ALLOWED,
  allContainers,
  containersPhrase,
  forbid,
  joinQuote,
  keyQuoted,
  nameOf,
  pluralize,
  securityContext,
  sortedSet,
  type CheckResult,
  type PodView,
} from './check.js';

/** The default capability set a container may add back (kube's capabilities_allowed_1_0). */
const DEFAULT_CAPABILITIES = new Set([
  'AUDIT_WRITE',
  'CHOWN',
  'DAC_OVERRIDE',
  'FOWNER',
  'FSETID',
  'KILL',
  'MKNOD',
  'NET_BIND_SERVICE',
  'SETFCAP',
  'SETGID',
  'SETPCAP',
  'SETUID',
  'SYS_CHROOT',
]);

function addedCapabilities(c: Json): string[] {
  const added = obj(securityContext(c)?.['capabilities'])?.['add'];
  return Array.isArray(added) ? added.filter((a): a is string => typeof a === 'string') : [];
}

/** capabilities_baseline: containers may add only capabilities from the default set. */
export function capabilitiesBaseline({ spec }: PodView): CheckResult {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const extra = addedCapabilities(c).filter((a) => !DEFAULT_CAPABILITIES.has(a));
    if (extra.length > 0) {
      bad.push(nameOf(c));
      caps.push(...extra);
    }
  }
  if (bad.length === 0) return ALLOWED;
  return forbid(
    'non-default capabilities',
    `${containersPhrase(bad)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
  );
}

const APPARMOR_ANNOTATION_PREFIX = 'container.apparmor.security.beta.kubernetes.io/';

function badAppArmorType(holder: Json): string | undefined {
  const profile = obj(securityContext(holder)?.['appArmorProfile']);
  if (!profile) return undefined;
  const type = str(profile['type']);
  return type === 'RuntimeDefault' || type === 'Localhost' ? undefined : type;
}

/**
 * appArmorProfile: the pod's and containers' appArmorProfile.type must be RuntimeDefault or
 * Localhost; the deprecated per-container annotations runtime/default, localhost/* or empty.
 */
export function appArmorProfile({ annotations, spec }: PodView): CheckResult {
  const setters: string[] = [];
  const values: string[] = [];
  const podType = badAppArmorType(spec);
  if (podType !== undefined) {
    setters.push('pod');
    values.push(podType);
  }
  const bad: string[] = [];
  for (const c of allContainers(spec)) {
    const t = badAppArmorType(c);
    if (t === undefined) continue;
    bad.push(nameOf(c));
    values.push(t);
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  const badAnnotations = Object.entries(annotations)
    .filter(([k]) => k.startsWith(APPARMOR_ANNOTATION_PREFIX))
    .filter(([, v]) => !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')))
    .map(([k, v]) => keyQuoted(k, v));
  if (badAnnotations.length > 0) {
    setters.push('annotations');
    values.push(...badAnnotations);
  }
  if (setters.length === 0) return ALLOWED;
  const unique = sortedSet(values);
  return forbid(
    pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', unique.length),
    `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(unique)}`,
  );
}

const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

/** seLinuxOptions: type only container_t/container_init_t/container_kvm_t; user and role unset. */
export function seLinuxOptions({ spec }: PodView): CheckResult {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (holder: Json): boolean => {
    const opts = obj(securityContext(holder)?.['seLinuxOptions']);
    if (!opts) return true;
    let ok = true;
    const type = str(opts['type']);
    if (!SELINUX_TYPES.has(type)) {
      ok = false;
      badTypes.push(type);
    }
    if (str(opts['user']) !== '') {
      ok = false;
      setUser = true;
    }
    if (str(opts['role']) !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const setters: string[] = [];
  if (!valid(spec)) setters.push('pod');
  const bad = allContainers(spec)
    .filter((c) => !valid(c))
    .map(nameOf);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return ALLOWED;
  const data: string[] = [];
  const types = sortedSet(badTypes);
  // As in kube, user and role are only spelled out beside a bad type.
  if (types.length > 0) {
    data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
    if (setUser) data.push('user may not be set');
    if (setRole) data.push('role may not be set');
  }
  return forbid(
    'seLinuxOptions',
    `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
  );
}

/** procMount: containers may leave procMount unset or Default. */
export function procMount({ spec }: PodView): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of allContainers(spec)) {
    const pm = securityContext(c)?.['procMount'];
    if (typeof pm !== 'string' || pm === 'Default') continue;
    bad.push(nameOf(c));
    types.push(pm);
  }
  if (bad.length === 0) return ALLOWED;
  return forbid(
    'procMount',
    `${containersPhrase(bad)} must not set securityContext.procMount to ${joinQuote(sortedSet(types))}`,
  );
}

export function validSeccompType(type: string): boolean {
  return type === 'RuntimeDefault' || type === 'Localhost';
}

function seccompType(holder: Json): string | undefined {
  const profile = obj(securityContext(holder)?.['seccompProfile']);
  return profile ? str(profile['type']) : undefined;
}

/**
 * The setters of a bad seccompProfile.type and the types, shared with the restricted check;
 * `unset` lists the containers that set none (the restricted check refuses those too).
 */
export function seccompSetters(spec: Json): {
  setters: string[];
  values: string[];
  podValid: boolean;
  unset: string[];
} {
  const setters: string[] = [];
  const values: string[] = [];
  const podType = seccompType(spec);
  if (podType !== undefined && !validSeccompType(podType)) {
    setters.push('pod');
    values.push(podType);
  }
  const podValid = podType !== undefined && validSeccompType(podType);
  const bad: string[] = [];
  const unset: string[] = [];
  for (const c of allContainers(spec)) {
    const t = seccompType(c);
    if (t === undefined) unset.push(nameOf(c));
    else if (!validSeccompType(t)) {
      bad.push(nameOf(c));
      values.push(t);
    }
  }
  if (bad.length > 0) setters.push(containersPhrase(bad));
  return { setters, values: sortedSet(values), podValid, unset };
}

/** seccompProfile_baseline: an explicit seccompProfile.type must be RuntimeDefault or Localhost. */
export function seccompProfileBaseline({ spec }: PodView): CheckResult {
  const { setters, values } = seccompSetters(spec);
  if (setters.length === 0) return ALLOWED;
  return forbid(
    'seccompProfile',
    `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`,
  );
}

/** The namespaced sysctls kube considers safe, as of its latest policy version. */
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
  'net.ipv4.tcp_rmem',
  'net.ipv4.tcp_wmem',
]);

/** sysctls: only the safe set. */
export function sysctls({ spec }: PodView): CheckResult {
  const bad = arr(securityContext(spec)?.['sysctls'])
    .map((s) => str(s['name']))
    .filter((n) => !SAFE_SYSCTLS.has(n));
  return bad.length === 0 ? ALLOWED : forbid('forbidden sysctls', bad.join(', '));
}
