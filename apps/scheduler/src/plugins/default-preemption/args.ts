import { z } from 'zod';
import type { PluginArgs } from '../../framework/interface.js';

export interface DefaultPreemptionArgs {
  /** Candidates to find before choosing, as a share of the nodes where preemption may help; 0..100. */
  readonly minCandidateNodesPercentage: number;
  /** ... and at least this many; ≥ 0, not both 0. */
  readonly minCandidateNodesAbsolute: number;
}

const schema = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  minCandidateNodesPercentage: z.int32().optional(),
  minCandidateNodesAbsolute: z.int32().optional(),
});

/**
 * kube's ValidateDefaultPreemptionArgs over the defaulted values, with `path` the args' field
 * path (`profiles[0].pluginConfig[1].args`); one line per problem, in kube's field.Error wording.
 */
export function validateDefaultPreemptionArgs(args: PluginArgs, path: string): string[] {
  const r = schema.safeParse(args);
  if (!r.success) {
    return r.error.issues.map((i) => `${[path, ...i.path.map(String)].join('.')}: ${i.message}`);
  }
  const pct = r.data.minCandidateNodesPercentage ?? 10;
  const abs = r.data.minCandidateNodesAbsolute ?? 100;
  const pctPath = `${path}.minCandidateNodesPercentage`;
  const absPath = `${path}.minCandidateNodesAbsolute`;
  const errs: string[] = [];
  if (pct < 0 || pct > 100) errs.push(`${pctPath}: Invalid value: ${pct}: not in valid range [0, 100]`);
  if (abs < 0) errs.push(`${absPath}: Invalid value: ${abs}: not in valid range [0, inf)`);
  if (pct === 0 && abs === 0) {
    errs.push(
      `${pctPath}: Invalid value: 0: cannot be zero at the same time as minCandidateNodesAbsolute`,
      `${absPath}: Invalid value: 0: cannot be zero at the same time as minCandidateNodesPercentage`,
    );
  }
  return errs;
}

/** DefaultPreemptionArgs with kube's v1 defaults (10 %, 100 nodes). */
export function parseDefaultPreemptionArgs(args: PluginArgs): DefaultPreemptionArgs {
  const errs = validateDefaultPreemptionArgs(args, 'args');
  if (errs.length > 0) throw new Error(`invalid DefaultPreemption args: ${errs.join('; ')}`);
  const r = schema.parse(args);
  return {
    minCandidateNodesPercentage: r.minCandidateNodesPercentage ?? 10,
    minCandidateNodesAbsolute: r.minCandidateNodesAbsolute ?? 100,
  };
}

/**
 * kube's calculateNumCandidates: the percentage of `numNodes`, at least the absolute number, at
 * most `numNodes`.
 */
export function numCandidates(args: DefaultPreemptionArgs, numNodes: number): number {
  let n = Math.trunc((numNodes * args.minCandidateNodesPercentage) / 100);
  if (n < args.minCandidateNodesAbsolute) n = args.minCandidateNodesAbsolute;
  return n > numNodes ? numNodes : n;
}
