/**
 * The PodSecurity admission plugin: pods are checked against their namespace's Pod Security
 * levels (enforce refuses, warn warns the client, audit annotates the audit event), namespaces'
 * labels are validated and a stricter enforce level is tried on the namespace's existing pods.
 */
import { aggregateFieldErrors, forbidden } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import type { AdmissionAttributes } from '../../attributes.js';
import type { AdmissionPlugin } from '../../plugin.js';
import type { ObjectIndex } from '../../registry.js';
import { strings } from '../json.js';
import type { PodSecurityConfig } from './config.js';
import { evaluatePod, forbiddenDetail, type Evaluation } from './evaluate.js';
import { fullyPrivileged, levelVersionString, policyFromLabels, type LevelVersion } from './levels.js';
import { validateNamespace } from './namespace.js';
import { isSignificantPodUpdate, podView, runtimeClassOf } from './pod-view.js';

export interface PodSecurityDeps {
  readonly namespaces: ObjectIndex;
  readonly pods: ObjectIndex;
  /** Reads a namespace from the store when the copy has not seen it yet. */
  readonly readNamespace: (name: string) => Promise<StoredObject | undefined>;
}

/** The prefix of PodSecurity's audit annotations. */
export const AUDIT_PREFIX = 'pod-security.kubernetes.io/';

/** Pod subresources that cannot change what the policy reads. */
const IGNORED_POD_SUBRESOURCES = new Set([
  'exec',
  'attach',
  'binding',
  'eviction',
  'log',
  'portforward',
  'proxy',
  'status',
]);

export function podSecurity(config: PodSecurityConfig, deps: PodSecurityDeps): AdmissionPlugin {
  const annotate = (attrs: AdmissionAttributes, key: string, value: string) =>
    attrs.addAnnotation?.(AUDIT_PREFIX + key, value);

  async function namespaceLabels(name: string): Promise<Record<string, string>> {
    const ns = deps.namespaces.get('', name) ?? (await deps.readNamespace(name));
    // A pod in a namespace that does not exist (NamespaceLifecycle refuses those when enabled)
    // is judged by the defaults, as an unlabelled namespace would be.
    return strings(ns?.metadata.labels);
  }

  async function validatePod(attrs: AdmissionAttributes): Promise<void> {
    if (IGNORED_POD_SUBRESOURCES.has(attrs.subresource) || !attrs.object) return;
    if (config.exemptions.namespaces.has(attrs.namespace)) return annotate(attrs, 'exempt', 'namespace');
    if (attrs.user.name !== '' && config.exemptions.usernames.has(attrs.user.name))
      return annotate(attrs, 'exempt', 'user');
    const { policy, errors } = policyFromLabels(await namespaceLabels(attrs.namespace), config.defaults);
    if (errors.length === 0 && fullyPrivileged(policy))
      return annotate(attrs, 'enforce-policy', levelVersionString(policy.enforce));
    const pod = podView(attrs.object);
    if (attrs.operation === 'UPDATE' && attrs.oldObject) {
      if (!isSignificantPodUpdate(pod, podView(attrs.oldObject))) return;
    }
    const runtimeClass = runtimeClassOf(pod);
    if (runtimeClass !== '' && config.exemptions.runtimeClasses.has(runtimeClass))
      return annotate(attrs, 'exempt', 'runtimeClass');
    if (errors.length > 0)
      annotate(attrs, 'error', `Failed to parse policy: ${aggregateFieldErrors(errors)}`);

    // Each level and version is evaluated once, however many modes share it.
    const results = new Map<string, Evaluation>();
    const evaluate = (lv: LevelVersion) => {
      const key = levelVersionString(lv);
      let r = results.get(key);
      if (!r) results.set(key, (r = evaluatePod(lv, pod)));
      return r;
    };
    annotate(attrs, 'enforce-policy', levelVersionString(policy.enforce));
    const enforced = evaluate(policy.enforce);
    const audited = evaluate(policy.audit);
    if (!audited.allowed)
      annotate(
        attrs,
        'audit-violations',
        `would violate PodSecurity "${levelVersionString(policy.audit)}": ${forbiddenDetail(audited)}`,
      );
    if (!enforced.allowed) {
      throw forbidden(
        { group: attrs.resource.group, resource: attrs.resource.resource },
        attrs.name,
        `violates PodSecurity "${levelVersionString(policy.enforce)}": ${forbiddenDetail(enforced)}`,
      );
    }
    const warned = evaluate(policy.warn);
    if (!warned.allowed)
      attrs.addWarning?.(
        `would violate PodSecurity "${levelVersionString(policy.warn)}": ${forbiddenDetail(warned)}`,
      );
  }

  return {
    name: 'PodSecurity',
    handles: (op) => op === 'CREATE' || op === 'UPDATE',
    async validate(attrs) {
      if (attrs.resource.group !== '') return;
      if (attrs.resource.resource === 'pods') return validatePod(attrs);
      if (attrs.resource.resource === 'namespaces') return validateNamespace(attrs, config, deps.pods);
    },
  };
}
