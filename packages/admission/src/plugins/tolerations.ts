/**
 * Comparing tolerations the way kube's pkg/util/tolerations does: which one tolerates at least
 * what another does, merging two lists without the redundant ones, and checking a list against
 * a whitelist. Absent fields are the empty string (the stored form leaves zero values out).
 */
import type { Toleration } from '@keel/coreapi';
import { sameJson } from './json.js';

/** Whether `ss` tolerates everything `t` tolerates. */
export function isSuperset(ss: Toleration, t: Toleration): boolean {
  if (sameJson(ss, t)) return true;
  const [ssKey, tKey] = [ss.key ?? '', t.key ?? ''];
  const [ssOp, tOp] = [ss.operator ?? '', t.operator ?? ''];
  // An empty key with Exists matches every key and value.
  if (tKey !== ssKey && (ssKey !== '' || ssOp !== 'Exists')) return false;
  // An empty effect matches every effect.
  const ssEffect = ss.effect ?? '';
  if ((t.effect ?? '') !== ssEffect && ssEffect !== '') return false;
  if (ssEffect === 'NoExecute' && ss.tolerationSeconds !== undefined) {
    if (t.tolerationSeconds === undefined || t.tolerationSeconds > ss.tolerationSeconds) return false;
  }
  switch (ssOp) {
    case 'Equal':
    case '':
      return tOp === 'Equal' && (t.value ?? '') === (ss.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Both lists in order, leaving out each toleration another one already covers. */
export function mergeTolerations(first: readonly Toleration[], second: readonly Toleration[]): Toleration[] {
  const all = [...first, ...second];
  const merged: Toleration[] = [];
  all.forEach((t, i) => {
    if (merged.some((m) => isSuperset(m, t))) return;
    // Of two equal tolerations the first is kept.
    if (all.slice(i + 1).some((later) => !sameJson(t, later) && isSuperset(later, t))) return;
    merged.push(t);
  });
  return merged;
}

/** Whether every toleration is covered by one of the whitelist's (an empty whitelist allows all). */
export function verifyAgainstWhitelist(
  tolerations: readonly Toleration[],
  whitelist: readonly Toleration[],
): boolean {
  if (whitelist.length === 0 || tolerations.length === 0) return true;
  return tolerations.every((t) => whitelist.some((w) => isSuperset(w, t)));
}
