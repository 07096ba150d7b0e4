/**
 * `k1=v1,k2=v2` as a label set (kube's labels.ConvertSelectorToLabelsMap), read with the one
 * label-selector parser: only equality requirements make a set.
 */
import { parseLabelSelector, type Labels } from '@keel/apimachinery';

/** The labels `selector` demands; throws an Error naming what is wrong. */
export function selectorLabels(selector: string): Record<string, string> {
  if (selector.trim() === '') return {};
  let requirements;
  try {
    requirements = parseLabelSelector(selector).requirements;
  } catch (err) {
    throw new Error(err instanceof Error ? err.message : String(err));
  }
  const out: Record<string, string> = {};
  for (const r of requirements) {
    const value = r.values[0];
    if ((r.operator !== '=' && r.operator !== '==') || value === undefined) {
      throw new Error(`invalid selector: ${JSON.stringify(selector)} (only key=value pairs)`);
    }
    out[r.key] = value;
  }
  return out;
}

/** Whether the two sets give one key different values (labels.Conflicts). */
export function labelsConflict(a: Labels, b: Labels): boolean {
  return Object.entries(a).some(([k, v]) => Object.hasOwn(b, k) && b[k] !== v);
}
