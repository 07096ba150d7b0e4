/**
 * Restricted checks: volume types, privilege escalation, non-root users, a required seccomp
 * profile and dropped capabilities.
 */
import { arr, obj } from '../json.js';
import { seccompSetters } from './baseline-security.js';
import {
  ALLOWED,
  allContainers,
  containersPhrase,
  forbid,
  isWindowsPod,
  joinQuote,
  nameOf,
  pluralize,
  securityContext,
  sortedSet,
  type CheckResult,
  type PodView,
} from './check.js';

/** The volume sources restricted pods may use. */
const ALLOWED_VOLUME_SOURCES = [
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'image',
  'persistentVolumeClaim',
  'projected',
  'secret',
];

/** The other sources, in the order kube names the first one a volume uses. */
const RESTRICTED_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'gitRepo',
  'nfs',
  'iscsi',
  'glusterfs',
  'rbd',
  'flexVolume',
  'cinder',
  'cephfs',
  'flocker',
  'fc',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'storageos',
];

const present = (v: unknown) => v !== undefined && v !== null;

/** restrictedVolumes: only configMap, csi, downwardAPI, emptyDir, ephemeral, PVC, projected, secret. */
export function restrictedVolumes({ spec }: PodView): CheckResult {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of arr(spec['volumes'])) {
    if (ALLOWED_VOLUME_SOURCES.some((s) => present(v[s]))) continue;
    bad.push(nameOf(v));
    types.push(RESTRICTED_VOLUME_SOURCES.find((s) => present(v[s])) ?? 'unknown');
  }
  if (bad.length === 0) return ALLOWED;
  const unique = sortedSet(types);
  return forbid(
    'restricted volume types',
    `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('restricted volume type', 'restricted volume types', unique.length)} ${joinQuote(unique)}`,
  );
}

/** allowPrivilegeEscalation: every container must set it to false (Linux pods). */
export function allowPrivilegeEscalation({ spec }: PodView): CheckResult {
  if (isWindowsPod(spec)) return ALLOWED;
  const bad = allContainers(spec)
    .filter((c) => securityContext(c)?.['allowPrivilegeEscalation'] !== false)
    .map(nameOf);
  if (bad.length === 0) return ALLOWED;
  return forbid(
    'allowPrivilegeEscalation != false',
    `${containersPhrase(bad)} must set securityContext.allowPrivilegeEscalation=false`,
  );
}

/** runAsNonRoot: true on the pod or on every container, and false nowhere. */
export function runAsNonRoot({ spec }: PodView): CheckResult {
  const setters: string[] = [];
  const podValue = securityContext(spec)?.['runAsNonRoot'];
  if (podValue === false) setters.push('pod');
  const podNonRoot = podValue === true;
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of allContainers(spec)) {
    const own = securityContext(c)?.['runAsNonRoot'];
    if (typeof own === 'boolean') {
      if (!own) explicit.push(nameOf(c));
    } else if (!podNonRoot) implicit.push(nameOf(c));
  }
  if (explicit.length > 0) setters.push(containersPhrase(explicit));
  if (setters.length > 0)
    return forbid(
      'runAsNonRoot != true',
      `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`,
    );
  if (implicit.length === 0) return ALLOWED;
  return forbid(
    'runAsNonRoot != true',
    `pod or ${containersPhrase(implicit)} must set securityContext.runAsNonRoot=true`,
  );
}

/** runAsUser: neither the pod nor a container may run as uid 0. */
export function runAsUser({ spec }: PodView): CheckResult {
  const setters: string[] = [];
  if (securityContext(spec)?.['runAsUser'] === 0) setters.push('pod');
  const bad = allContainers(spec)
    .filter((c) => securityContext(c)?.['runAsUser'] === 0)
    .map(nameOf);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return ALLOWED;
  return forbid('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`);
}

/** seccompProfile_restricted: RuntimeDefault or Localhost on the pod or on every container (Linux pods). */
export function seccompProfileRestricted({ spec }: PodView): CheckResult {
  if (isWindowsPod(spec)) return ALLOWED;
  const { setters, values, podValid, unset } = seccompSetters(spec);
  if (setters.length > 0)
    return forbid(
      'seccompProfile',
      `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`,
    );
  if (podValid || unset.length === 0) return ALLOWED;
  return forbid(
    'seccompProfile',
    `pod or ${containersPhrase(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
  );
}

/** capabilities_restricted: every container drops ALL and adds at most NET_BIND_SERVICE (Linux pods). */
export function capabilitiesRestricted({ spec }: PodView): CheckResult {
  if (isWindowsPod(spec)) return ALLOWED;
  const missingDropAll: string[] = [];
  const adding: string[] = [];
  const caps: string[] = [];
  for (const c of allContainers(spec)) {
    const capabilities = obj(securityContext(c)?.['capabilities']);
    if (!capabilities) {
      missingDropAll.push(nameOf(c));
      continue;
    }
    const drop = capabilities['drop'];
    if (!Array.isArray(drop) || !drop.includes('ALL')) missingDropAll.push(nameOf(c));
    const add = Array.isArray(capabilities['add']) ? capabilities['add'] : [];
    const extra = add.filter((a): a is string => typeof a === 'string' && a !== 'NET_BIND_SERVICE');
    if (extra.length > 0) {
      adding.push(nameOf(c));
      caps.push(...extra);
    }
  }
  const details: string[] = [];
  if (missingDropAll.length > 0)
    details.push(`${containersPhrase(missingDropAll)} must set securityContext.capabilities.drop=["ALL"]`);
  if (adding.length > 0)
    details.push(
      `${containersPhrase(adding)} must not include ${joinQuote(sortedSet(caps))} in securityContext.capabilities.add`,
    );
  return details.length === 0 ? ALLOWED : forbid('unrestricted capabilities', details.join('; '));
}
