import { z } from 'zod';
import type { PluginArgs } from '../../framework/interface.js';

export interface VolumeBindingArgs {
  /** How long PreBind waits for the claims to be bound before the pod is retried. */
  readonly bindTimeoutSeconds: number;
}

const schema = z.strictObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  bindTimeoutSeconds: z.int().optional(),
  shape: z.array(z.strictObject({ utilization: z.int32(), score: z.int32() })).optional(),
});

/**
 * kube's ValidateVolumeBindingArgs with the StorageCapacityScoring gate off (1.33's default):
 * `shape` is refused, as upstream refuses it until the gate is on.
 */
export function validateVolumeBindingArgs(args: PluginArgs, path: string): string[] {
  const r = schema.safeParse(args);
  if (!r.success) {
    return r.error.issues.map((i) => `${[path, ...i.path.map(String)].join('.')}: ${i.message}`);
  }
  const errs: string[] = [];
  const t = r.data.bindTimeoutSeconds;
  if (t !== undefined && t < 0)
    errs.push(
      `${path}.bindTimeoutSeconds: Invalid value: ${t}: invalid BindTimeoutSeconds, should not be a negative value`,
    );
  if (r.data.shape !== undefined)
    errs.push(
      `${path}.shape: Invalid value: ${JSON.stringify(r.data.shape)}: unsupported when StorageCapacityScoring feature is disabled`,
    );
  return errs;
}

/** VolumeBindingArgs with kube's v1 default (600 s). */
export function parseVolumeBindingArgs(args: PluginArgs): VolumeBindingArgs {
  const errs = validateVolumeBindingArgs(args, 'args');
  if (errs.length > 0) throw new Error(`invalid VolumeBinding args: ${errs.join('; ')}`);
  return { bindTimeoutSeconds: schema.parse(args).bindTimeoutSeconds ?? 600 };
}
