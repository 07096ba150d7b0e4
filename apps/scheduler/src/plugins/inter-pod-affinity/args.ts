import { z } from 'zod';
import type { PluginArgs } from '../../framework/interface.js';

export interface InterPodAffinityArgs {
  /** Score weight of existing pods' required affinity terms the incoming pod matches; 0..100. */
  readonly hardPodAffinityWeight: number;
  /** Score only by the incoming pod's own preferred terms. */
  readonly ignorePreferredTermsOfExistingPods: boolean;
}

const schema = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  hardPodAffinityWeight: z.int32().optional(),
  ignorePreferredTermsOfExistingPods: z.boolean().optional(),
});

/**
 * kube's ValidateInterPodAffinityArgs, with `path` the args' field path
 * (`profiles[0].pluginConfig[1].args`); one line per problem, in kube's field.Error wording.
 */
export function validateInterPodAffinityArgs(args: PluginArgs, path: string): string[] {
  const r = schema.safeParse(args);
  if (!r.success) {
    return r.error.issues.map((i) => `${[path, ...i.path.map(String)].join('.')}: ${i.message}`);
  }
  const w = r.data.hardPodAffinityWeight;
  return w !== undefined && (w < 0 || w > 100)
    ? [`${path}.hardPodAffinityWeight: Invalid value: ${w}: not in valid range [0-100]`]
    : [];
}

/** InterPodAffinityArgs with kube's v1 defaults (hardPodAffinityWeight 1). */
export function parseInterPodAffinityArgs(args: PluginArgs): InterPodAffinityArgs {
  const errs = validateInterPodAffinityArgs(args, 'args');
  if (errs.length > 0) throw new Error(`invalid InterPodAffinity args: ${errs.join('; ')}`);
  const r = schema.parse(args);
  return {
    hardPodAffinityWeight: r.hardPodAffinityWeight ?? 1,
    ignorePreferredTermsOfExistingPods: r.ignorePreferredTermsOfExistingPods ?? false,
  };
}
