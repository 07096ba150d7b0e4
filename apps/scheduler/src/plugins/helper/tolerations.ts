import type { Taint, Toleration } from '../../framework/types.js';

export const TAINT_EFFECT_NO_SCHEDULE = 'NoSchedule';
export const TAINT_EFFECT_PREFER_NO_SCHEDULE = 'PreferNoSchedule';
export const TAINT_EFFECT_NO_EXECUTE = 'NoExecute';

/**
 * core/v1 Toleration.ToleratesTaint: an empty effect or key matches any; operator Exists matches
 * any value, Equal (or empty) needs the same value; other operators tolerate nothing.
 */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => toleratesTaint(t, taint));
}

/** The first taint (in node order) passing `inScope` that no toleration tolerates. */
export function findUntoleratedTaint(
  taints: readonly Taint[],
  tolerations: readonly Toleration[],
  inScope: (t: Taint) => boolean,
): Taint | undefined {
  return taints.find((taint) => inScope(taint) && !tolerationsTolerateTaint(tolerations, taint));
}

/** Taints the scheduler must not ignore: NoSchedule and NoExecute. */
export function doNotScheduleTaint(t: Taint): boolean {
  return t.effect === TAINT_EFFECT_NO_SCHEDULE || t.effect === TAINT_EFFECT_NO_EXECUTE;
}
