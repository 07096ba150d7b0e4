import type { AdmissionPluginDefinition } from '../definition.js';
import { nothingToActOn, withoutConfig } from '../definition.js';
import { alwaysAdmit } from './always-admit.js';
import { alwaysDeny } from './always-deny.js';
import { eventRateLimit, parseEventRateLimitConfig } from './event-rate-limit/index.js';
import { limitRanger } from './limit-ranger.js';
import { nodeRestriction } from './node-restriction.js';
import { resourceQuota } from './resource-quota.js';
import { parseQuotaConfig } from './resource-quota-config.js';
import { ownerReferencesPermissionEnforcement } from './owner-references-permission.js';
import { runtimeClass } from './runtime-class.js';
import { UNSERVED_PLUGINS } from './unserved.js';
import { imagePolicyWebhookDefinition } from './image-policy-webhook.js';
import { podSecurityDefinition } from './pod-security/index.js';
import { namespaceAutoProvision } from './namespace-autoprovision.js';
import { namespaceExists } from './namespace-exists.js';
import { namespaceLifecycle } from './namespace-lifecycle.js';
import { namespaceSource } from './namespace-lookup.js';
import { priority } from './priority.js';
import { serviceAccount } from './service-account.js';
import { mutatingAdmissionWebhook, validatingAdmissionWebhook } from './webhook/index.js';

import { alwaysPullImages } from './always-pull-images.js';
import { defaultTolerationSeconds } from './default-toleration-seconds.js';
import { extendedResourceToleration } from './extended-resource-toleration.js';
import { limitPodHardAntiAffinityTopology } from './limit-pod-hard-anti-affinity-topology.js';
import { parsePodNodeSelectorConfig, podNodeSelector } from './pod-node-selector.js';
import { parseTolerationRestrictionConfig, podTolerationRestriction } from './pod-toleration-restriction.js';
import { securityContextDeny } from './security-context-deny.js';
import { denyServiceExternalIPs } from './deny-service-external-ips.js';
import { taintNodesByCondition } from './taint-nodes-by-condition.js';

/** The plugins Keel implements here, by their --enable-admission-plugins name. */
export const ADMISSION_PLUGINS: ReadonlyMap<string, AdmissionPluginDefinition> = new Map<
  string,
  AdmissionPluginDefinition
>([
  ['AlwaysAdmit', withoutConfig('AlwaysAdmit', () => alwaysAdmit)],
  [
    'NodeRestriction',
    withoutConfig('NodeRestriction', (deps) =>
      nodeRestriction({ pods: deps.objects('pods'), nodes: deps.objects('nodes') }),
    ),
  ],
  ['AlwaysDeny', withoutConfig('AlwaysDeny', () => alwaysDeny)],
  [
    'EventRateLimit',
    {
      prepare(config) {
        const limits = parseEventRateLimitConfig(config);
        return () => eventRateLimit(limits);
      },
    },
  ],
  [
    'OwnerReferencesPermissionEnforcement',
    withoutConfig('OwnerReferencesPermissionEnforcement', (deps) =>
      ownerReferencesPermissionEnforcement(deps),
    ),
  ],
  ['RuntimeClass', withoutConfig('RuntimeClass', () => runtimeClass)],
  ...[...UNSERVED_PLUGINS.keys()].map((name): [string, AdmissionPluginDefinition] => [
    name,
    withoutConfig(name, () => nothingToActOn(name)),
  ]),
  ['PodSecurity', podSecurityDefinition],
  ['ImagePolicyWebhook', imagePolicyWebhookDefinition],
  [
    'NamespaceLifecycle',
    withoutConfig('NamespaceLifecycle', (deps) => namespaceLifecycle(namespaceSource(deps))),
  ],
  ['NamespaceExists', withoutConfig('NamespaceExists', (deps) => namespaceExists(namespaceSource(deps)))],
  [
    'NamespaceAutoProvision',
    withoutConfig('NamespaceAutoProvision', (deps) =>
      namespaceAutoProvision(namespaceSource(deps), (name) => deps.createNamespace(name)),
    ),
  ],
  [
    'DefaultTolerationSeconds',
    withoutConfig('DefaultTolerationSeconds', (_deps, flags) =>
      defaultTolerationSeconds({
        notReady: flags.defaultNotReadyTolerationSeconds,
        unreachable: flags.defaultUnreachableTolerationSeconds,
      }),
    ),
  ],
  ['TaintNodesByCondition', withoutConfig('TaintNodesByCondition', () => taintNodesByCondition)],
  ['AlwaysPullImages', withoutConfig('AlwaysPullImages', () => alwaysPullImages)],
  [
    'PodNodeSelector',
    {
      prepare(config) {
        const selectors = parsePodNodeSelectorConfig(config);
        return (deps) => podNodeSelector(selectors, deps);
      },
    },
  ],
  [
    'PodTolerationRestriction',
    {
      prepare(config) {
        const tolerations = parseTolerationRestrictionConfig(config);
        return (deps) => podTolerationRestriction(tolerations, deps);
      },
    },
  ],
  [
    'ExtendedResourceToleration',
    withoutConfig('ExtendedResourceToleration', () => extendedResourceToleration),
  ],
  ['SecurityContextDeny', withoutConfig('SecurityContextDeny', () => securityContextDeny)],
  ['DenyServiceExternalIPs', withoutConfig('DenyServiceExternalIPs', () => denyServiceExternalIPs)],
  [
    'LimitPodHardAntiAffinityTopology',
    withoutConfig('LimitPodHardAntiAffinityTopology', () => limitPodHardAntiAffinityTopology),
  ],
  [
    'ServiceAccount',
    withoutConfig('ServiceAccount', (deps) =>
      serviceAccount({
        serviceAccounts: deps.objects('serviceaccounts'),
        readServiceAccount: (namespace, name) => deps.read('serviceaccounts', namespace, name),
      }),
    ),
  ],
  [
    'Priority',
    withoutConfig('Priority', (deps) =>
      priority({
        classes: deps.objects('priorityclasses'),
        readClass: (name) => deps.read('priorityclasses', '', name),
      }),
    ),
  ],
  [
    'LimitRanger',
    withoutConfig('LimitRanger', (deps) =>
      limitRanger({
        limitRanges: deps.objects('limitranges'),
        listLive: (namespace) => deps.list('limitranges', namespace),
      }),
    ),
  ],
  [
    'ResourceQuota',
    {
      prepare(config) {
        const parsed = parseQuotaConfig(config);
        return (deps) =>
          resourceQuota({
            quotas: deps.objects('resourcequotas'),
            listLive: (namespace) => deps.list('resourcequotas', namespace),
            replaceStatus: (quota) => deps.replaceStatus('resourcequotas', quota),
            config: parsed,
          });
      },
    },
  ],
  ['MutatingAdmissionWebhook', mutatingAdmissionWebhook],
  ['ValidatingAdmissionWebhook', validatingAdmissionWebhook],
]);
