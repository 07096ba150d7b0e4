import { isQualifiedName } from '@keel/apimachinery';
import { z } from 'zod';
import type { PluginArgs } from '../../framework/interface.js';
import type { TopologySpreadConstraint } from '../../framework/types.js';

export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/**
 * kube's systemDefaultConstraints: spread each workload's pods over hosts and zones as a
 * preference, for pods that declare no constraints of their own.
 */
export const SYSTEM_DEFAULT_CONSTRAINTS: readonly TopologySpreadConstraint[] = [
  { topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
  { topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

export interface PodTopologySpreadArgs {
  readonly defaultingType: 'System' | 'List';
  /** The constraints applied to pods without their own: the system ones, or the listed ones. */
  readonly defaultConstraints: readonly TopologySpreadConstraint[];
}

const constraint = z.object({
  maxSkew: z.int32(),
  topologyKey: z.string(),
  whenUnsatisfiable: z.string(),
  labelSelector: z.unknown().optional(),
  minDomains: z.int32().nullish(),
  nodeAffinityPolicy: z.string().nullish(),
  nodeTaintsPolicy: z.string().nullish(),
  matchLabelKeys: z.array(z.string()).nullish(),
});

const schema = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  defaultConstraints: z.array(constraint).optional(),
  defaultingType: z.string().optional(),
});

const WHEN = ['DoNotSchedule', 'ScheduleAnyway'];

/**
 * kube's ValidatePodTopologySpreadArgs over the defaulted args (defaultingType System when unset),
 * `path` being the args' field path; one line per problem in kube's field.Error wording.
 */
export function validatePodTopologySpreadArgs(args: PluginArgs, path: string): string[] {
  const r = schema.safeParse(args);
  if (!r.success) {
    return r.error.issues.map((i) => `${[path, ...i.path.map(String)].join('.')}: ${i.message}`);
  }
  const errs: string[] = [];
  const type = r.data.defaultingType ?? 'System';
  const list = r.data.defaultConstraints ?? [];
  if (type !== 'System' && type !== 'List') {
    errs.push(`${path}.defaultingType: Unsupported value: "${type}": supported values: "List", "System"`);
  } else if (type === 'System' && list.length > 0) {
    errs.push(`${path}.defaultingType: Invalid value: "System": when .defaultConstraints are not empty`);
  }
  list.forEach((c, i) => {
    const p = `${path}.defaultConstraints[${i}]`;
    if (c.maxSkew <= 0) errs.push(`${p}.maxSkew: Invalid value: ${c.maxSkew}: not in valid range (0, inf)`);
    if (c.topologyKey === '') errs.push(`${p}.topologyKey: Required value: can not be empty`);
    else {
      const e = isQualifiedName(c.topologyKey);
      if (e.length > 0) errs.push(`${p}.topologyKey: Invalid value: "${c.topologyKey}": ${e.join('; ')}`);
    }
    if (c.whenUnsatisfiable === '') errs.push(`${p}.whenUnsatisfiable: Required value: can not be empty`);
    else if (!WHEN.includes(c.whenUnsatisfiable)) {
      errs.push(
        `${p}.whenUnsatisfiable: Unsupported value: "${c.whenUnsatisfiable}": supported values: "DoNotSchedule", "ScheduleAnyway"`,
      );
    }
    if (c.labelSelector !== undefined && c.labelSelector !== null) {
      errs.push(
        `${p}.labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`,
      );
    }
    const dup = list
      .slice(0, i)
      .some((o) => o.topologyKey === c.topologyKey && o.whenUnsatisfiable === c.whenUnsatisfiable);
    if (dup) {
      errs.push(
        `${path}.defaultConstraints[${i}]: Duplicate value: "{${c.topologyKey}, ${c.whenUnsatisfiable}}"`,
      );
    }
  });
  return errs;
}

/** PodTopologySpreadArgs with kube's v1 defaults (defaultingType System). */
export function parsePodTopologySpreadArgs(args: PluginArgs): PodTopologySpreadArgs {
  const errs = validatePodTopologySpreadArgs(args, 'args');
  if (errs.length > 0) throw new Error(`invalid PodTopologySpread args: ${errs.join('; ')}`);
  const r = schema.parse(args);
  if ((r.defaultingType ?? 'System') === 'System') {
    return { defaultingType: 'System', defaultConstraints: SYSTEM_DEFAULT_CONSTRAINTS };
  }
  return {
    defaultingType: 'List',
    defaultConstraints: (r.defaultConstraints ?? []).map((c) => ({
      maxSkew: c.maxSkew,
      topologyKey: c.topologyKey,
      whenUnsatisfiable: c.whenUnsatisfiable,
      ...(c.minDomains != null ? { minDomains: c.minDomains } : {}),
      ...(c.nodeAffinityPolicy != null ? { nodeAffinityPolicy: c.nodeAffinityPolicy } : {}),
      ...(c.nodeTaintsPolicy != null ? { nodeTaintsPolicy: c.nodeTaintsPolicy } : {}),
      ...(c.matchLabelKeys != null ? { matchLabelKeys: c.matchLabelKeys } : {}),
    })),
  };
}
