/**
 * Runs the checks of a level over a pod, in the order kube registers them (baseline checks by
 * file name, then the restricted ones; at restricted a baseline check its restricted counterpart
 * covers is left out), and words the aggregate result.
 */
import * as host from './baseline-host.js';
import * as security from './baseline-security.js';
import type { CheckResult, PodView } from './check.js';
import type { LevelVersion } from './levels.js';
import * as restricted from './restricted.js';

interface VersionedCheck {
  readonly id: string;
  /** The first policy version (v1.N) the check applies to. */
  readonly since: number;
  readonly check: (pod: PodView) => CheckResult;
}

const BASELINE: readonly VersionedCheck[] = [
  { id: 'appArmorProfile', since: 0, check: security.appArmorProfile },
  { id: 'capabilities_baseline', since: 0, check: security.capabilitiesBaseline },
  { id: 'hostNamespaces', since: 0, check: host.hostNamespaces },
  { id: 'hostPathVolumes', since: 0, check: host.hostPathVolumes },
  { id: 'hostPorts', since: 0, check: host.hostPorts },
  { id: 'privileged', since: 0, check: host.privileged },
  { id: 'procMount', since: 0, check: security.procMount },
  { id: 'seLinuxOptions', since: 0, check: security.seLinuxOptions },
  { id: 'seccompProfile_baseline', since: 0, check: security.seccompProfileBaseline },
  { id: 'sysctls', since: 0, check: security.sysctls },
  { id: 'windowsHostProcess', since: 0, check: host.hostProcess },
];

/** Baseline checks a restricted check replaces at the restricted level. */
const OVERRIDDEN_AT_RESTRICTED = new Set([
  'capabilities_baseline',
  'hostPathVolumes',
  'seccompProfile_baseline',
]);

const RESTRICTED: readonly VersionedCheck[] = [
  { id: 'allowPrivilegeEscalation', since: 8, check: restricted.allowPrivilegeEscalation },
  { id: 'capabilities_restricted', since: 22, check: restricted.capabilitiesRestricted },
  { id: 'restrictedVolumes', since: 0, check: restricted.restrictedVolumes },
  { id: 'runAsNonRoot', since: 0, check: restricted.runAsNonRoot },
  { id: 'runAsUser', since: 23, check: restricted.runAsUser },
  { id: 'seccompProfile_restricted', since: 19, check: restricted.seccompProfileRestricted },
];

/** The failed checks' reasons and details, in check order (kube's AggregateCheckResult). */
export interface Evaluation {
  readonly allowed: boolean;
  readonly failures: readonly CheckResult[];
}

function checksFor(lv: LevelVersion): VersionedCheck[] {
  if (lv.level === 'privileged') return [];
  const minor = lv.version === 'latest' ? Number.MAX_SAFE_INTEGER : lv.version.minor;
  const applies = (c: VersionedCheck) => c.since <= minor;
  if (lv.level === 'baseline') return BASELINE.filter(applies);
  return [...BASELINE.filter((c) => !OVERRIDDEN_AT_RESTRICTED.has(c.id)), ...RESTRICTED].filter(applies);
}

/** Evaluates `pod` against a level (the checks are those of the latest policy, from their first version). */
export function evaluatePod(lv: LevelVersion, pod: PodView): Evaluation {
  const failures = checksFor(lv)
    .map((c) => c.check(pod))
    .filter((r) => !r.allowed);
  return { allowed: failures.length === 0, failures };
}

/** `host ports, privileged`: what the namespace check prints per group of pods. */
export function forbiddenReason(e: Evaluation): string {
  return e.failures.map((f) => f.reason || 'unknown forbidden reason').join(', ');
}

/** `hostPort (container "a" uses hostPort 80), privileged (...)`: what a single pod is told. */
export function forbiddenDetail(e: Evaluation): string {
  return e.failures
    .map((f) => {
      const reason = f.reason || 'unknown forbidden reason';
      return f.detail ? `${reason} (${f.detail})` : reason;
    })
    .join(', ');
}
