/**
 * Whether the rules a user holds cover the rules a role grants (kube's Covers, BreakdownRule,
 * ruleCovers), and the missing ones compacted and printed as the escalation error lists them
 * (CompactRules, PolicyRule.CompactString).
 */
import { goQuote } from '@keel/apimachinery';
import type { PolicyRule } from './types.js';

const ALL = '*';

function has(set: readonly string[] | undefined, v: string): boolean {
  return (set ?? []).includes(v);
}

function hasAll(set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  const owned = new Set(set ?? []);
  return (wanted ?? []).every((w) => owned.has(w));
}

/** One verb, one group, one resource and at most one name (or one URL and one verb) per rule. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? [])
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0)
          for (const name of names)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCoversAll(
  owned: readonly string[] | undefined,
  wanted: readonly string[] | undefined,
): boolean {
  if (has(owned, ALL) || hasAll(owned, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(owned, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0) return false;
    if (!has(owned, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function nonResourceURLCovers(owner: string, sub: string): boolean {
  return owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((u) =>
    (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, u)),
  );
  const ownerNames = owner.resourceNames ?? [];
  const names =
    (sub.resourceNames ?? []).length === 0
      ? ownerNames.length === 0
      : ownerNames.length === 0 || hasAll(ownerNames, sub.resourceNames);
  return verbs && groups && resources && names && urls;
}

/** Whether `owner` covers every rule of `servant`, and the broken-down rules it does not. */
export function covers(
  owner: readonly PolicyRule[],
  servant: readonly PolicyRule[],
): [boolean, PolicyRule[]] {
  const missing = servant.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
  return [missing.length === 0, missing];
}

/** Merges simple rules (one group, one resource, at most one name) that differ only by verb. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const names = r.resourceNames ?? [];
    const isSimple =
      names.length <= 1 &&
      (r.nonResourceURLs ?? []).length === 0 &&
      (r.apiGroups ?? []).length === 1 &&
      (r.resources ?? []).length === 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups, r.resources, names]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

/** Go's `%q` of a []string: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map((s) => goQuote(s)).join(' ')}]`;
}

/** PolicyRule.CompactString: `{APIGroups:[""], Resources:["pods"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: readonly string[] | undefined) => {
    if (v && v.length > 0) parts.push(`${label}:${goQuoteList(v)}`);
  };
  add('APIGroups', r.apiGroups);
  add('Resources', r.resources);
  add('NonResourceURLs', r.nonResourceURLs);
  add('ResourceNames', r.resourceNames);
  add('Verbs', r.verbs);
  return `{${parts.join(', ')}}`;
}
