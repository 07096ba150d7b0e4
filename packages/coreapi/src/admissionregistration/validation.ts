/**
 * pkg/apis/admissionregistration/validation for webhook configurations, as a v1 create or update
 * sees it. matchConditions (CEL) are refused: this server cannot evaluate them, and calling a
 * webhook its conditions would have skipped is worse than a clear error on the write.
 */
import {
  duplicate,
  FieldPath,
  forbiddenField,
  invalidValue,
  isDNS1035Label,
  isDNS1123Subdomain,
  nameIsDNSSubdomain,
  notSupported,
  required,
  validateObjectMeta,
  validateObjectMetaUpdate,
  type FieldError,
} from '@keel/apimachinery';
import { validateLabelSelector } from '../scheduling-validation.js';
import type { MutatingWebhook, RuleWithOperations, ValidatingWebhook, WebhookClientConfig } from './schema.js';

const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const SIDE_EFFECTS_ALL = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];
const SIDE_EFFECTS_NONE = ['None', 'NoneOnDryRun'];
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];

/** What an update may keep that a create may not (upstream's validationOptions). */
export interface WebhookValidationOptions {
  readonly requireNoSideEffects: boolean;
  readonly requireRecognizedAdmissionReviewVersion: boolean;
  readonly requireUniqueWebhookNames: boolean;
}

export const CREATE_OPTIONS: WebhookValidationOptions = {
  requireNoSideEffects: true,
  requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true,
};

/** The options an update gets: what the old object already broke is not held against it. */
export function updateOptions(old: readonly ValidatingWebhook[]): WebhookValidationOptions {
  const names = old.map((h) => h.name);
  return {
    requireNoSideEffects: old.every((h) => h.sideEffects !== undefined && SIDE_EFFECTS_NONE.includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: old.every(
      (h) => (h.admissionReviewVersions ?? []).length === 0 || (h.admissionReviewVersions ?? []).some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)),
    ),
    requireUniqueWebhookNames: new Set(names).size === names.length,
  };
}

/** utilvalidation.IsFullyQualifiedName. */
function fullyQualifiedName(p: FieldPath, name: string): FieldError[] {
  if (name === '') return [required(p)];
  const errs = isDNS1123Subdomain(name);
  if (errs.length > 0) return [invalidValue(p, name, errs.join(','))];
  if (name.split('.').length < 3) return [invalidValue(p, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

const hasWildcard = (xs: readonly string[]) => xs.includes('*');

/** validateResources: `resource/subresource` with the wildcard rules. */
function validateResources(resources: readonly string[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(required(p));
  const resWithWildSub = new Set<string>();
  const subWithWildRes = new Set<string>();
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(p.index(i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      withoutSub = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resWithWildSub.has(res)) errs.push(invalidValue(p.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildRes.has(sub)) errs.push(invalidValue(p.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resWithWildSub.add(res);
    if (res === '*') subWithWildRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(invalidValue(p, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(invalidValue(p, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations. */
function validateRule(rule: RuleWithOperations, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errs.push(required(p.child('operations')));
  if (ops.length > 1 && hasWildcard(ops)) errs.push(invalidValue(p.child('operations'), ops, "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errs.push(notSupported(p.child('operations').index(i), op, OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(required(p.child('apiGroups')));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(invalidValue(p.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(required(p.child('apiVersions')));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(invalidValue(p.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errs.push(required(p.child('apiVersions').index(i)));
  });
  errs.push(...validateResources(rule.resources ?? [], p.child('resources')));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errs.push(notSupported(p.child('scope'), rule.scope, SCOPES));
  return errs;
}

/** Go's url.Parse, as far as ValidateWebhookURL looks at it. */
function splitUrl(raw: string): { scheme: string; host: string; user: string | undefined; query: string; fragment: string } {
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  let query = '';
  const q = rest.indexOf('?');
  if (q >= 0) [rest, query] = [rest.slice(0, q), rest.slice(q + 1)];
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest)?.[1] ?? '';
  if (scheme !== '') rest = rest.slice(scheme.length + 1);
  if (!rest.startsWith('//')) return { scheme: scheme.toLowerCase(), host: '', user: undefined, query, fragment };
  const authority = rest.slice(2).split('/')[0] ?? '';
  const at = authority.lastIndexOf('@');
  return {
    scheme: scheme.toLowerCase(),
    host: at >= 0 ? authority.slice(at + 1) : authority,
    user: at >= 0 ? authority.slice(0, at) : undefined,
    query,
    fragment,
  };
}

const URL_FORM = '; desired format: https://host[/path]';

/** webhook.ValidateWebhookURL with https forced. */
function validateUrl(p: FieldPath, raw: string): FieldError[] {
  const errs: FieldError[] = [];
  const u = splitUrl(raw);
  if (u.scheme !== 'https') errs.push(invalidValue(p, u.scheme, "'https' is the only allowed URL scheme" + URL_FORM));
  if (u.host === '') errs.push(invalidValue(p, u.host, 'host must be provided' + URL_FORM));
  if (u.user !== undefined) errs.push(invalidValue(p, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(invalidValue(p, u.fragment, 'fragments are not permitted in the URL'));
  if (u.query !== '') errs.push(invalidValue(p, u.query, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
function validateService(p: FieldPath, s: NonNullable<WebhookClientConfig['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!s.name) errs.push(required(p.child('name'), 'service name is required'));
  if (!s.namespace) errs.push(required(p.child('namespace'), 'service namespace is required'));
  const port = s.port ?? 443;
  if (port < 1 || port > 65535) errs.push(invalidValue(p.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
  const path = s.path;
  if (path === undefined || path === '' || path === '/') return errs;
  if (path === '//') return [...errs, invalidValue(p.child('path'), path, 'segment[0] may not be empty')];
  if (!path.startsWith('/')) errs.push(invalidValue(p.child('path'), path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step === '') errs.push(invalidValue(p.child('path'), path, `segment[${i}] may not be empty`));
    else for (const msg of isDNS1123Subdomain(step)) errs.push(invalidValue(p.child('path'), path, `segment[${i}]: ${msg}`));
  });
  return errs;
}

function validateClientConfig(cc: WebhookClientConfig | undefined, p: FieldPath): FieldError[] {
  const url = cc?.url;
  const service = cc?.service;
  if ((url === undefined) === (service === undefined)) return [required(p, 'exactly one of url or service is required')];
  if (url !== undefined) return validateUrl(p.child('url'), url);
  return service ? validateService(p.child('service'), service) : [];
}

function validateReviewVersions(versions: readonly string[], opts: WebhookValidationOptions, p: FieldPath): FieldError[] {
  if (versions.length < 1) return [required(p, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalidValue(p.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDNS1035Label(v)) errs.push(invalidValue(p.index(i), v, msg));
  });
  if (opts.requireRecognizedAdmissionReviewVersion && !versions.some((v) => ACCEPTED_REVIEW_VERSIONS.includes(v)))
    errs.push(invalidValue(p, versions, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
  return errs;
}

function validateWebhook(hook: MutatingWebhook, mutating: boolean, opts: WebhookValidationOptions, p: FieldPath): FieldError[] {
  const errs = fullyQualifiedName(p.child('name'), hook.name ?? '');
  (hook.rules ?? []).forEach((r, i) => errs.push(...validateRule(r, p.child('rules').index(i))));
  if (hook.failurePolicy !== undefined && !FAILURE_POLICIES.includes(hook.failurePolicy))
    errs.push(notSupported(p.child('failurePolicy'), hook.failurePolicy, FAILURE_POLICIES));
  if (hook.matchPolicy !== undefined && !MATCH_POLICIES.includes(hook.matchPolicy))
    errs.push(notSupported(p.child('matchPolicy'), hook.matchPolicy, MATCH_POLICIES));
  const allowed = opts.requireNoSideEffects ? SIDE_EFFECTS_NONE : SIDE_EFFECTS_ALL;
  if (hook.sideEffects === undefined) errs.push(required(p.child('sideEffects'), `must specify one of ${allowed.join(', ')}`));
  else if (!allowed.includes(hook.sideEffects)) errs.push(notSupported(p.child('sideEffects'), hook.sideEffects, allowed));
  const timeout = hook.timeoutSeconds;
  if (timeout !== undefined && (timeout > 30 || timeout < 1))
    errs.push(invalidValue(p.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
  errs.push(...validateLabelSelector(hook.namespaceSelector, p.child('namespaceSelector')));
  errs.push(...validateLabelSelector(hook.objectSelector, p.child('objectSelector')));
  if (mutating && hook.reinvocationPolicy !== undefined && !REINVOCATION_POLICIES.includes(hook.reinvocationPolicy))
    errs.push(notSupported(p.child('reinvocationPolicy'), hook.reinvocationPolicy, REINVOCATION_POLICIES));
  errs.push(...validateClientConfig(hook.clientConfig, p.child('clientConfig')));
  if ((hook.matchConditions ?? []).length > 0)
    errs.push(forbiddenField(p.child('matchConditions'), 'matchConditions (CEL) are not supported by this server'));
  return errs;
}

/** validate{Mutating,Validating}WebhookConfiguration. */
export function validateWebhookConfiguration(
  c: { metadata: Parameters<typeof validateObjectMeta>[0]; webhooks?: MutatingWebhook[] },
  mutating: boolean,
  opts: WebhookValidationOptions,
): FieldError[] {
  const errs = validateObjectMeta(c.metadata, { namespaced: false, nameValidator: nameIsDNSSubdomain });
  const names = new Set<string>();
  (c.webhooks ?? []).forEach((hook, i) => {
    const p = FieldPath.of('webhooks').index(i);
    errs.push(...validateWebhook(hook, mutating, opts, p));
    errs.push(...validateReviewVersions(hook.admissionReviewVersions ?? [], opts, p.child('admissionReviewVersions')));
    if (opts.requireUniqueWebhookNames && hook.name) {
      if (names.has(hook.name)) errs.push(duplicate(p.child('name'), hook.name));
      else names.add(hook.name);
    }
  });
  return errs;
}

export { validateObjectMetaUpdate };
