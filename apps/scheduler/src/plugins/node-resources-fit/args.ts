import { z } from 'zod';
import type { PluginArgs } from '../../framework/interface.js';
import { DEFAULT_RESOURCES, type ResourceSpec } from './resource-allocation.js';

export const SCORING_STRATEGIES = ['LeastAllocated', 'MostAllocated'] as const;
export type ScoringStrategyType = (typeof SCORING_STRATEGIES)[number];

const resourceSpec = z.strictObject({ name: z.string().min(1), weight: z.int().min(1).max(100).optional() });

const fitArgs = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  ignoredResources: z.array(z.string()).optional(),
  ignoredResourceGroups: z.array(z.string()).optional(),
  scoringStrategy: z
    .strictObject({
      type: z.enum(SCORING_STRATEGIES).optional(),
      resources: z.array(resourceSpec).optional(),
    })
    .optional(),
});

const balancedArgs = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  resources: z.array(resourceSpec).optional(),
});

export interface FitArgs {
  readonly ignoredResources: ReadonlySet<string>;
  readonly ignoredResourceGroups: ReadonlySet<string>;
  readonly strategy: ScoringStrategyType;
  readonly resources: readonly ResourceSpec[];
}

function issues(plugin: string, err: z.ZodError): Error {
  const text = err.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  return new Error(`invalid ${plugin} args: ${text}`);
}

const specs = (
  r: readonly { name: string; weight?: number | undefined }[] | undefined,
): readonly ResourceSpec[] =>
  r ? r.map((s) => ({ name: s.name, weight: s.weight ?? 1 })) : DEFAULT_RESOURCES;

/**
 * NodeResourcesFitArgs with kube's defaults (LeastAllocated over cpu and memory, weight 1 each).
 * RequestedToCapacityRatio is not implemented and is refused rather than ignored.
 */
export function parseFitArgs(args: PluginArgs): FitArgs {
  const r = fitArgs.safeParse(args);
  if (!r.success) throw issues('NodeResourcesFit', r.error);
  return {
    ignoredResources: new Set(r.data.ignoredResources ?? []),
    ignoredResourceGroups: new Set(r.data.ignoredResourceGroups ?? []),
    strategy: r.data.scoringStrategy?.type ?? 'LeastAllocated',
    resources: specs(r.data.scoringStrategy?.resources),
  };
}

/** NodeResourcesBalancedAllocationArgs: the resources to balance, cpu and memory by default. */
export function parseBalancedArgs(args: PluginArgs): readonly ResourceSpec[] {
  const r = balancedArgs.safeParse(args);
  if (!r.success) throw issues('NodeResourcesBalancedAllocation', r.error);
  return specs(r.data.resources);
}
