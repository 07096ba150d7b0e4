/**
 * Reads an audit Policy (audit.k8s.io/v1, or v1beta1 which has the same rules) from a YAML or
 * JSON file and validates it as kube-apiserver does. A problem becomes one line naming the file,
 * the field and what was expected, because the daemon prints it as its exit message.
 */
import { describeZodIssues, readConfigDocument } from '@keel/config-file';
import { z } from 'zod';
import { AUDIT_VERSIONS, LEVELS, STAGES, type Level, type Stage } from './types.js';

export class PolicyError extends Error {
  override readonly name = 'PolicyError';
}

export interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

export interface PolicyRule {
  readonly level: Level;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  /** The rule's own stages joined with the policy-wide ones. */
  readonly omitStages: readonly Stage[];
  /** The rule's value, else the policy's. */
  readonly omitManagedFields: boolean;
}

export interface Policy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly Stage[];
  readonly omitManagedFields: boolean;
}

const strings = z.array(z.string()).nullish();
const level = z.enum(LEVELS);
const stages = z.array(z.enum(STAGES)).nullish();

const groupResources = z.strictObject({
  group: z.string().nullish(),
  resources: strings,
  resourceNames: strings,
});

const rule = z.strictObject({
  level,
  users: strings,
  userGroups: strings,
  verbs: strings,
  resources: z.array(groupResources).nullish(),
  namespaces: strings,
  nonResourceURLs: strings,
  omitStages: stages,
  omitManagedFields: z.boolean().nullish(),
});

const policySchema = z.strictObject({
  apiVersion: z.enum(AUDIT_VERSIONS),
  kind: z.literal('Policy'),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  rules: z.array(rule).min(1, 'expected at least one rule (a policy with no rules is not allowed)'),
  omitStages: stages,
  omitManagedFields: z.boolean().nullish(),
});

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Reads and validates `path`; throws PolicyError with one line. */
export function loadPolicyFile(path: string): Policy {
  let read: { readonly file: string; readonly doc: unknown };
  try {
    read = readConfigDocument(path, 'audit policy file');
  } catch (err) {
    throw new PolicyError((err as Error).message);
  }
  return parsePolicy(read.doc, (problem) => new PolicyError(`audit policy file ${read.file}: ${problem}`));
}

/** Validates an already decoded document; `fail` words the error. */
export function parsePolicy(
  doc: unknown,
  fail: (problem: string) => Error = (p) => new PolicyError(p),
): Policy {
  const parsed = policySchema.safeParse(doc, { reportInput: true });
  if (!parsed.success) throw fail(describeZodIssues(parsed.error.issues).join('; '));
  const p = parsed.data;
  const policyStages = p.omitStages ?? [];
  const policyOmitManaged = p.omitManagedFields ?? false;
  const problems: string[] = [];
  const rules = p.rules.map((r, i): PolicyRule => {
    const at = `rules[${i}]`;
    const resources = (r.resources ?? []).map((g, j) => {
      const group = g.group ?? '';
      if (group !== '' && group !== '*' && !DNS_SUBDOMAIN.test(group))
        problems.push(`${at}.resources[${j}].group: expected a DNS subdomain (e.g. "apps"), got "${group}"`);
      const names = g.resourceNames ?? [];
      if (names.length > 0 && (g.resources ?? []).length === 0)
        problems.push(
          `${at}.resources[${j}].resourceNames: using resourceNames requires at least one resource`,
        );
      return { group, resources: g.resources ?? [], resourceNames: names };
    });
    const urls = r.nonResourceURLs ?? [];
    urls.forEach((u, j) => {
      if (u === '*') return;
      if (!u.startsWith('/'))
        problems.push(
          `${at}.nonResourceURLs[${j}]: non-resource URL rules must begin with a '/' character, got "${u}"`,
        );
      if (u.slice(0, -1).includes('*'))
        problems.push(
          `${at}.nonResourceURLs[${j}]: non-resource URL wildcards '*' must be the final character of the rule, got "${u}"`,
        );
    });
    if (urls.length > 0 && (resources.length > 0 || (r.namespaces ?? []).length > 0))
      problems.push(
        `${at}.nonResourceURLs: rules cannot apply to both regular resources and non-resource URLs`,
      );
    return {
      level: r.level,
      users: r.users ?? [],
      userGroups: r.userGroups ?? [],
      verbs: r.verbs ?? [],
      resources,
      namespaces: r.namespaces ?? [],
      nonResourceURLs: urls,
      omitStages: [...new Set([...policyStages, ...(r.omitStages ?? [])])],
      omitManagedFields: r.omitManagedFields ?? policyOmitManaged,
    };
  });
  if (problems.length > 0) throw fail(problems.join('; '));
  return { rules, omitStages: policyStages, omitManagedFields: policyOmitManaged };
}
