import { readFileSync } from 'node:fs';
import { ConfigError, fileErrorText } from '../config-error.js';
import { decodePolicyLine, PolicyDecodeError, type PolicySpec } from './abac-policy.js';
import type { UserInfo } from '../authn/types.js';
import {
  isReadOnly,
  type Attributes,
  type Authorizer,
  type Decision,
  type NonResourceRuleInfo,
  type ResourceRuleInfo,
  type RuleResolution,
  type RuleResolver,
} from './types.js';

const FLAG = '--authorization-policy-file';

function subjectMatches(p: PolicySpec, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user === '*') matched = true;
    else if (p.user === user.name) matched = true;
    else return false;
  }
  if (p.group !== '') {
    if (p.group === '*') matched = true;
    else if (user.groups.includes(p.group)) matched = true;
    else return false;
  }
  return matched;
}

function verbMatches(p: PolicySpec, attrs: Attributes): boolean {
  return isReadOnly(attrs.verb) || !p.readonly;
}

function resourceMatches(p: PolicySpec, attrs: Attributes): boolean {
  return (
    attrs.isResourceRequest &&
    (p.namespace === '*' || p.namespace === attrs.namespace) &&
    (p.resource === '*' || p.resource === attrs.resource) &&
    (p.apiGroup === '*' || p.apiGroup === attrs.apiGroup)
  );
}

function nonResourceMatches(p: PolicySpec, attrs: Attributes): boolean {
  if (attrs.isResourceRequest) return false;
  const path = p.nonResourcePath;
  if (path === '*' || path === attrs.path) return true;
  return path.endsWith('*') && attrs.path.startsWith(path.replace(/\*+$/, ''));
}

/** Whether one ABAC policy allows the request (kube's abac.matches). */
export function policyMatches(p: PolicySpec, attrs: Attributes): boolean {
  return (
    subjectMatches(p, attrs.user) &&
    verbMatches(p, attrs) &&
    (resourceMatches(p, attrs) || nonResourceMatches(p, attrs))
  );
}

const verbsOf = (readonly: boolean): string[] => (readonly ? ['get', 'list', 'watch'] : ['*']);

/**
 * The first matching policy allows; with none, NoOpinion `No policy matched.` Its rules for a
 * user are the policies naming the user (or a group of theirs) in that namespace or `*`, one
 * rule per resource and per non-resource path (kube's PolicyList.RulesFor).
 */
export class ABACAuthorizer implements Authorizer, RuleResolver {
  constructor(readonly policies: readonly PolicySpec[]) {}

  authorize(attrs: Attributes): Promise<Decision> {
    const allowed = this.policies.some((p) => policyMatches(p, attrs));
    return Promise.resolve(
      allowed ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: 'No policy matched.' },
    );
  }

  rulesFor(user: UserInfo, namespace: string): Promise<RuleResolution> {
    const resourceRules: ResourceRuleInfo[] = [];
    const nonResourceRules: NonResourceRuleInfo[] = [];
    for (const p of this.policies) {
      if (!subjectMatches(p, user) || (p.namespace !== '*' && p.namespace !== namespace)) continue;
      if (p.resource !== '') {
        resourceRules.push({
          verbs: verbsOf(p.readonly),
          apiGroups: [p.apiGroup],
          resources: [p.resource],
          resourceNames: [],
        });
      }
      if (p.nonResourcePath !== '') {
        nonResourceRules.push({ verbs: verbsOf(p.readonly), nonResourceURLs: [p.nonResourcePath] });
      }
    }
    return Promise.resolve({ resourceRules, nonResourceRules, incomplete: false });
  }
}

export interface LoadedPolicies {
  readonly policies: readonly PolicySpec[];
  readonly warnings: readonly string[];
}

/**
 * Reads an ABAC policy file: one JSON policy per line, blank lines and lines starting with `#`
 * (after trimming) skipped. A line that does not decode is a ConfigError naming the file and line,
 * in kube's words (`error reading policy file <path>, line <n>: <line>: <reason>`).
 */
export function loadPolicyFile(path: string): LoadedPolicies {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${FLAG}: ${fileErrorText(err, path)}`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const policies: PolicySpec[] = [];
  let unversioned = 0;
  lines.forEach((rawLine, index) => {
    // bufio.ScanLines drops a trailing \r.
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    try {
      const decoded = decodePolicyLine(line);
      if (decoded.unversioned) unversioned++;
      policies.push(decoded.spec);
    } catch (err) {
      if (!(err instanceof PolicyDecodeError)) throw err;
      throw new ConfigError(
        `${FLAG}: error reading policy file ${path}, line ${index + 1}: ${line}: ${err.message}`,
      );
    }
  });
  const warnings =
    unversioned > 0
      ? [`Policy file ${path} contained unversioned rules, read in the unversioned (v0) ABAC format.`]
      : [];
  return { policies, warnings };
}
