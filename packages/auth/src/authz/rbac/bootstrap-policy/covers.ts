/**
 * Whether one set of rules grants everything another does, as the reference's policy comparator:
 * the servant rules are broken into single-verb, single-resource pieces and each piece must be
 * granted by one owner rule (`*` verbs, groups and resources, a subresource granted for any
 * resource, and URL prefixes ending in `*` count). Reconciliation appends the uncovered pieces, so a default role gains what it lacks
 * without losing what a user added.
 */
import type { PolicyRule } from '../types.js';

/** One rule per verb × group × resource (× name), and per verb × URL. */
export function breakdownRule(r: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of r.apiGroups ?? []) {
    for (const resource of r.resources ?? []) {
      for (const verb of r.verbs) {
        const names = r.resourceNames ?? [];
        if (names.length === 0) out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        for (const name of names) {
          out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        }
      }
    }
  }
  for (const url of r.nonResourceURLs ?? []) {
    for (const verb of r.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  }
  return out;
}

/** The pieces of `servant` that no rule of `owner` grants (empty when covered). */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  return servant.flatMap(breakdownRule).filter((piece) => !owner.some((o) => ruleCovers(o, piece)));
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((w) => set.includes(w));
}

function resourcesCovered(owned: readonly string[], wanted: readonly string[]): boolean {
  if (owned.includes('*')) return true;
  return wanted.every((path) => {
    if (owned.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && owned.includes(`*${path.slice(slash)}`);
  });
}

function urlCovers(owner: string, path: string): boolean {
  return owner === path || (owner.endsWith('*') && path.startsWith(owner.replace(/\*+$/, '')));
}

function ruleCovers(owner: PolicyRule, piece: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const pieceNames = piece.resourceNames ?? [];
  return (
    (owner.verbs.includes('*') || hasAll(owner.verbs, piece.verbs)) &&
    ((owner.apiGroups ?? []).includes('*') || hasAll(owner.apiGroups ?? [], piece.apiGroups ?? [])) &&
    resourcesCovered(owner.resources ?? [], piece.resources ?? []) &&
    (piece.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => urlCovers(o, p))) &&
    (ownerNames.length === 0 || (pieceNames.length > 0 && hasAll(ownerNames, pieceNames)))
  );
}
