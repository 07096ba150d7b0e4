/**
 * PodSecurity on namespaces: the level and version labels must parse, and a stricter enforce
 * level is tried on the namespace's existing pods, the violations sent back as warnings.
 */
import { fieldErrorString, invalid, type FieldError } from '@keel/apimachinery';
import type { AdmissionAttributes } from '../../attributes.js';
import type { ObjectIndex } from '../../registry.js';
import { obj, strings } from '../json.js';
import type { PodSecurityConfig } from './config.js';
import { evaluatePod, forbiddenReason } from './evaluate.js';
import {
  compareLevels,
  fullyPrivileged,
  levelLabel,
  levelVersionString,
  MODES,
  policyFromLabels,
  sameLevelVersion,
  versionLabel,
  versionString,
  type LevelVersion,
  type Policy,
} from './levels.js';
import { podView, runtimeClassOf } from './pod-view.js';

/** At most this many existing pods are tried, as in kube. */
export const MAX_PODS_TO_CHECK = 3000;
/** ... and for at most this long. */
const POD_CHECK_BUDGET_MS = 1000;

const labelsOf = (o: unknown) => strings(obj(obj(o)?.['metadata'])?.['labels']);

function sameErrors(a: readonly FieldError[], b: readonly FieldError[]): boolean {
  return (
    a.length === b.length && a.every((e, i) => fieldErrorString(e) === fieldErrorString(b[i] as FieldError))
  );
}

export function validateNamespace(
  attrs: AdmissionAttributes,
  config: PodSecurityConfig,
  pods: ObjectIndex,
): void {
  if (attrs.subresource !== '' || !attrs.object) return;
  const labels = labelsOf(attrs.object);
  const { policy, errors } = policyFromLabels(labels, config.defaults);
  const refuse = () => invalid({ group: '', kind: 'Namespace' }, attrs.name, errors);
  const exempt = config.exemptions.namespaces.has(attrs.name);
  if (attrs.operation === 'CREATE') {
    if (errors.length > 0) throw refuse();
    if (exempt) warnExempt(attrs, policy, labels, config.defaults);
    return;
  }
  if (attrs.operation !== 'UPDATE') return;
  const old = policyFromLabels(labelsOf(attrs.oldObject), config.defaults);
  // Labels that were already bad may stay as they were.
  if (errors.length > 0 && (old.errors.length === 0 || !sameErrors(errors, old.errors))) throw refuse();
  const enforce = policy.enforce;
  if (sameLevelVersion(enforce, old.policy.enforce) || enforce.level === 'privileged') return;
  const sameVersion = versionString(enforce.version) === versionString(old.policy.enforce.version);
  if (sameVersion && compareLevels(enforce.level, old.policy.enforce.level) < 1) return;
  if (exempt) return warnExempt(attrs, policy, labels, config.defaults);
  for (const w of checkExistingPods(attrs.name, enforce, pods, config)) attrs.addWarning?.(w);
}

/** kube's Policy.Equivalent: the same levels, and the same versions where the level is not privileged. */
function equivalent(a: Policy, b: Policy): boolean {
  return MODES.every(
    (m) => a[m].level === b[m].level && (a[m].level === 'privileged' || sameLevelVersion(a[m], b[m])),
  );
}

function warnExempt(
  attrs: AdmissionAttributes,
  policy: Policy,
  labels: Readonly<Record<string, string>>,
  defaults: Policy,
): void {
  if (fullyPrivileged(policy) || equivalent(policy, defaults)) return;
  const set = MODES.filter(
    (m) =>
      policy[m].level !== 'privileged' &&
      (labels[levelLabel(m)] !== undefined || labels[versionLabel(m)] !== undefined),
  ).map((m) => `${m}=${levelVersionString(policy[m])}`);
  attrs.addWarning?.(
    `namespace "${attrs.name}" is exempt from Pod Security, and the policy (${set.join(', ')}) will be ignored`,
  );
}

/**
 * The warnings for pods in `namespace` that `enforce` would refuse: pods with the same problems
 * are grouped under the first name, one pod per controller is tried before the rest.
 */
export function checkExistingPods(
  namespace: string,
  enforce: LevelVersion,
  pods: ObjectIndex,
  config: PodSecurityConfig,
  now: () => number = Date.now,
): string[] {
  const all = pods.list(namespace).filter((p) => p.metadata.namespace === namespace);
  const first: typeof all = [];
  const rest: typeof all = [];
  const seenControllers = new Set<string>();
  for (const p of all) {
    const view = podView(p);
    const rc = runtimeClassOf(view);
    if (rc !== '' && config.exemptions.runtimeClasses.has(rc)) continue;
    const uid = p.metadata.ownerReferences?.find((o) => o.controller === true)?.uid ?? '';
    if (uid === '' || !seenControllers.has(uid)) {
      if (uid !== '') seenControllers.add(uid);
      first.push(p);
    } else rest.push(p);
  }
  const ordered = [...first, ...rest];
  const total = ordered.length;
  const candidates = ordered.slice(0, MAX_PODS_TO_CHECK);
  const deadline = now() + POD_CHECK_BUDGET_MS;
  const groups = new Map<string, { name: string; count: number }>();
  let checked = candidates.length;
  for (let i = 0; i < candidates.length; i++) {
    const p = candidates[i];
    if (!p) continue;
    const r = evaluatePod(enforce, podView(p));
    if (!r.allowed) {
      const reason = forbiddenReason(r);
      const name = p.metadata.name ?? '';
      const g = groups.get(reason);
      if (!g) groups.set(reason, { name, count: 1 });
      else {
        g.count++;
        if (name < g.name) g.name = name;
      }
    }
    if (now() > deadline) {
      checked = i + 1;
      break;
    }
  }
  const warnings: string[] = [];
  if (checked < total)
    warnings.push(
      `new PodSecurity enforce level only checked against the first ${checked} of ${total} existing pods`,
    );
  if (groups.size > 0)
    warnings.push(
      `existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`,
    );
  const podWarnings = [...groups.entries()].map(([reason, g]) => {
    if (g.count === 1) return `${g.name}: ${reason}`;
    if (g.count === 2) return `${g.name} (and 1 other pod): ${reason}`;
    return `${g.name} (and ${g.count - 1} other pods): ${reason}`;
  });
  podWarnings.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [...warnings, ...podWarnings];
}
