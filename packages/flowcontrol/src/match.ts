/**
 * Which FlowSchema a request belongs to (upstream's apf_controller matching): the schemas in
 * ascending matchingPrecedence, then name, and the first whose rules match both the request's
 * subject and its target wins.
 */
import {
  API_GROUP_ALL,
  NAME_ALL,
  NAMESPACE_EVERY,
  NON_RESOURCE_ALL,
  RESOURCE_ALL,
  SUBJECT_KIND_GROUP,
  SUBJECT_KIND_SERVICE_ACCOUNT,
  SUBJECT_KIND_USER,
  VERB_ALL,
  type FlowSchema,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type ResourcePolicyRule,
  type Subject,
} from './types.js';

/** What classification reads of a request: who sends it and what it asks for. */
export interface RequestDigest {
  readonly user: { readonly name: string; readonly groups: readonly string[] };
  readonly isResourceRequest: boolean;
  readonly verb: string;
  readonly apiGroup: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly path: string;
}

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

function matchesSubject(s: Subject, user: RequestDigest['user']): boolean {
  switch (s.kind) {
    case SUBJECT_KIND_USER: {
      const name = s.user?.name ?? '';
      return name === NAME_ALL || name === user.name;
    }
    case SUBJECT_KIND_GROUP: {
      const name = s.group?.name ?? '';
      return name === NAME_ALL || user.groups.includes(name);
    }
    case SUBJECT_KIND_SERVICE_ACCOUNT: {
      const sa = s.serviceAccount;
      if (!sa || !user.name.startsWith(SERVICE_ACCOUNT_PREFIX)) return false;
      const [namespace, name] = user.name.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
      return namespace === sa.namespace && (sa.name === NAME_ALL || sa.name === name);
    }
    default:
      return false;
  }
}

const hasOrAll = (list: readonly string[] | undefined, all: string, value: string): boolean =>
  !!list && (list.includes(all) || list.includes(value));

function matchesResourceRule(r: ResourcePolicyRule, d: RequestDigest): boolean {
  if (!hasOrAll(r.verbs, VERB_ALL, d.verb) || !hasOrAll(r.apiGroups, API_GROUP_ALL, d.apiGroup)) return false;
  const resource = d.subresource === '' ? d.resource : `${d.resource}/${d.subresource}`;
  if (!hasOrAll(r.resources, RESOURCE_ALL, resource)) return false;
  if (d.namespace === '') return r.clusterScope === true;
  return hasOrAll(r.namespaces, NAMESPACE_EVERY, d.namespace);
}

function matchesURL(pattern: string, path: string): boolean {
  if (pattern === NON_RESOURCE_ALL || pattern === path) return true;
  // `/apis/*` covers `/apis` and everything under it.
  if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -1);
    return path.startsWith(prefix) || path === pattern.slice(0, -2);
  }
  return false;
}

function matchesNonResourceRule(r: NonResourcePolicyRule, d: RequestDigest): boolean {
  return hasOrAll(r.verbs, VERB_ALL, d.verb) && (r.nonResourceURLs ?? []).some((u) => matchesURL(u, d.path));
}

function matchesRules(p: PolicyRulesWithSubjects, d: RequestDigest): boolean {
  if (!(p.subjects ?? []).some((s) => matchesSubject(s, d.user))) return false;
  return d.isResourceRequest
    ? (p.resourceRules ?? []).some((r) => matchesResourceRule(r, d))
    : (p.nonResourceRules ?? []).some((r) => matchesNonResourceRule(r, d));
}

export function matchesFlowSchema(fs: FlowSchema, d: RequestDigest): boolean {
  return (fs.spec.rules ?? []).some((p) => matchesRules(p, d));
}

/** Ascending matchingPrecedence, then name: the order classification tries schemas in. */
export function byPrecedence(a: FlowSchema, b: FlowSchema): number {
  const pa = a.spec.matchingPrecedence ?? 0;
  const pb = b.spec.matchingPrecedence ?? 0;
  if (pa !== pb) return pa - pb;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
