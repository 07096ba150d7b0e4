/**
 * Which webhooks a write goes to (upstream's generic Webhook.ShouldCallHook with its rules,
 * namespace and object matchers): the namespace selector, then the object selector, then the
 * rules; a namespace that cannot be found is only an error for a webhook whose rules match.
 */
import {
  internalError,
  labelSelectorFromSpec,
  notFound,
  StatusError,
  type LabelSelector,
} from '@keel/apimachinery';
import type { AdmissionAttributes, AdmittedObject } from '../../attributes.js';
import type { WebhookRule, WebhookSelector, WebhookSpec } from './config.js';

/** Where the labels of a write's namespace come from. */
export interface NamespaceLabels {
  /** The namespace's labels, or undefined when it does not exist. */
  labelsOf(name: string): Promise<Readonly<Record<string, string>> | undefined>;
}

const ADMISSION_REGISTRATION = 'admissionregistration.k8s.io';
const EXEMPT = new Set([
  'mutatingwebhookconfigurations',
  'validatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);

/** Writes to admission's own configuration never go to webhooks (IsExemptAdmissionConfigurationResource). */
export function isExemptResource(attrs: AdmissionAttributes): boolean {
  return attrs.resource.group === ADMISSION_REGISTRATION && EXEMPT.has(attrs.resource.resource);
}

function isNamespaceObject(attrs: AdmissionAttributes): boolean {
  return attrs.resource.group === '' && attrs.resource.resource === 'namespaces';
}

/** The namespace a write is in; a namespace object is "in" itself. */
function namespaceOf(attrs: AdmissionAttributes): string {
  if (isNamespaceObject(attrs))
    return attrs.name || (attrs.object?.metadata.name ?? attrs.oldObject?.metadata.name ?? '');
  return attrs.namespace;
}

const anyOf = (allowed: readonly string[] | undefined, value: string) =>
  (allowed ?? []).some((a) => a === '*' || a === value);

function scopeMatches(rule: WebhookRule, attrs: AdmissionAttributes): boolean {
  const scope = rule.scope ?? '*';
  if (scope === '*') return true;
  const clusterScoped = isNamespaceObject(attrs) || attrs.namespace === '';
  if (scope === 'Namespaced') return !clusterScoped;
  if (scope === 'Cluster') return clusterScoped;
  return false;
}

// Entries are `resource` or `resource/subresource`, either part possibly the wildcard `*`.
function resourceMatches(rule: WebhookRule, attrs: AdmissionAttributes): boolean {
  return (rule.resources ?? []).some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === attrs.resource.resource) && (sub === '*' || sub === attrs.subresource);
  });
}

/** rules.Matcher.Matches. */
export function ruleMatches(rule: WebhookRule, attrs: AdmissionAttributes): boolean {
  return (
    scopeMatches(rule, attrs) &&
    anyOf(rule.operations, attrs.operation) &&
    anyOf(rule.apiGroups, attrs.resource.group) &&
    anyOf(rule.apiVersions, attrs.resource.version) &&
    resourceMatches(rule, attrs)
  );
}

function parsedSelector(spec: WebhookSelector | undefined): LabelSelector {
  try {
    // A stored webhook always has a selector ({} by default): a missing one selects everything.
    return labelSelectorFromSpec(spec ?? {});
  } catch (err) {
    throw internalError(err instanceof StatusError ? err.status.message : err);
  }
}

const labelsOf = (obj: AdmittedObject | undefined) => obj?.metadata.labels ?? {};

/** MatchObjectSelector: the new or the old object carries matching labels. */
export function objectSelectorMatches(hook: WebhookSpec, attrs: AdmissionAttributes): boolean {
  const selector = parsedSelector(hook.objectSelector);
  if (selector.isEmpty()) return true;
  return (
    (attrs.object !== undefined && selector.matches(labelsOf(attrs.object))) ||
    (attrs.oldObject !== undefined && selector.matches(labelsOf(attrs.oldObject)))
  );
}

/**
 * MatchNamespaceSelector: cluster-scoped objects other than namespaces always match; a namespace
 * being created or updated is judged by its new labels.
 */
export async function namespaceSelectorMatches(
  hook: WebhookSpec,
  attrs: AdmissionAttributes,
  namespaces: NamespaceLabels,
): Promise<boolean | StatusError> {
  const name = namespaceOf(attrs);
  if (name === '' && !isNamespaceObject(attrs)) return true;
  const selector = parsedSelector(hook.namespaceSelector);
  if (selector.isEmpty()) return true;
  if (
    isNamespaceObject(attrs) &&
    attrs.subresource === '' &&
    (attrs.operation === 'CREATE' || attrs.operation === 'UPDATE')
  )
    return selector.matches(labelsOf(attrs.object));
  const labels = await namespaces.labelsOf(name);
  if (labels === undefined) return notFound({ group: '', resource: 'namespaces' }, name);
  return selector.matches(labels);
}

/** Whether `hook` gets this write; a StatusError when it should but its namespace is missing. */
export async function shouldCall(
  hook: WebhookSpec,
  attrs: AdmissionAttributes,
  namespaces: NamespaceLabels,
): Promise<boolean> {
  const nsMatch = await namespaceSelectorMatches(hook, attrs, namespaces);
  if (nsMatch === false) return false;
  if (!objectSelectorMatches(hook, attrs)) return false;
  if (!(hook.rules ?? []).some((r) => ruleMatches(r, attrs))) return false;
  if (nsMatch instanceof StatusError) throw nsMatch;
  return true;
}
