/**
 * Baseline checks on what a pod shares with its node: Windows hostProcess, host namespaces,
 * privileged containers, host ports and hostPath volumes.
 */
import { arr, obj } from '../json.js';
import {
  ALLOWED,
  allContainers,
  containersPhrase,
  forbid,
  nameOf,
  pluralize,
  joinQuote,
  securityContext,
  sortedSet,
  type CheckResult,
  type PodView,
} from './check.js';

function hostProcessSet(holder: Record<string, unknown>): boolean {
  return obj(securityContext(holder)?.['windowsOptions'])?.['hostProcess'] === true;
}

/** windowsHostProcess: neither the pod nor a container may set windowsOptions.hostProcess=true. */
export function hostProcess({ spec }: PodView): CheckResult {
  const setters: string[] = [];
  if (hostProcessSet(spec)) setters.push('pod');
  const bad = allContainers(spec).filter(hostProcessSet).map(nameOf);
  if (bad.length > 0) setters.push(containersPhrase(bad));
  if (setters.length === 0) return ALLOWED;
  return forbid(
    'hostProcess',
    `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`,
  );
}

/** hostNamespaces: hostNetwork, hostPID and hostIPC must be unset or false. */
export function hostNamespaces({ spec }: PodView): CheckResult {
  const shared = (['hostNetwork', 'hostPID', 'hostIPC'] as const)
    .filter((f) => spec[f] === true)
    .map((f) => `${f}=true`);
  return shared.length === 0 ? ALLOWED : forbid('host namespaces', shared.join(', '));
}

/** privileged: no container may set securityContext.privileged=true. */
export function privileged({ spec }: PodView): CheckResult {
  const bad = allContainers(spec)
    .filter((c) => securityContext(c)?.['privileged'] === true)
    .map(nameOf);
  if (bad.length === 0) return ALLOWED;
  return forbid('privileged', `${containersPhrase(bad)} must not set securityContext.privileged=true`);
}

/** hostPorts: no container port may name a hostPort. */
export function hostPorts({ spec }: PodView): CheckResult {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of allContainers(spec)) {
    const used = arr(c['ports'])
      .map((p) => p['hostPort'])
      .filter((p): p is number => typeof p === 'number' && p !== 0);
    if (used.length > 0) {
      bad.push(nameOf(c));
      ports.push(...used.map(String));
    }
  }
  if (bad.length === 0) return ALLOWED;
  const unique = sortedSet(ports);
  return forbid(
    'hostPort',
    `${containersPhrase(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', unique.length)} ${unique.join(', ')}`,
  );
}

/** hostPathVolumes: no hostPath volume. */
export function hostPathVolumes({ spec }: PodView): CheckResult {
  const bad = arr(spec['volumes'])
    .filter((v) => v['hostPath'] !== undefined && v['hostPath'] !== null)
    .map(nameOf);
  if (bad.length === 0) return ALLOWED;
  return forbid('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`);
}
