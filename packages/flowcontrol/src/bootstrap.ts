/**
 * The configuration objects every server starts from (upstream's apis/flowcontrol/bootstrap, v1
 * values): the mandatory exempt and catch-all pairs, which the server always restores, and the
 * suggested levels and schemas for the platform's own components. Namespaces and user names are
 * Keel's spelling of the real ones (platform-system for kube-system).
 */
import {
  API_GROUP_ALL,
  DISTINGUISHER_BY_NAMESPACE,
  DISTINGUISHER_BY_USER,
  LIMIT_RESPONSE_QUEUE,
  LIMIT_RESPONSE_REJECT,
  NAME_ALL,
  NAMESPACE_EVERY,
  NON_RESOURCE_ALL,
  PRIORITY_LEVEL_EXEMPT,
  PRIORITY_LEVEL_LIMITED,
  RESOURCE_ALL,
  SUBJECT_KIND_GROUP,
  SUBJECT_KIND_SERVICE_ACCOUNT,
  SUBJECT_KIND_USER,
  VERB_ALL,
  type FlowSchema,
  type NonResourcePolicyRule,
  type PolicyRulesWithSubjects,
  type PriorityLevelConfiguration,
  type ResourcePolicyRule,
  type Subject,
} from './types.js';

export const SYSTEM_NAMESPACE = 'platform-system';
const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
const NODES_GROUP = 'system:nodes';
const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';
const CONTROLLER_MANAGER = 'system:kube-controller-manager';
const SCHEDULER = 'system:kube-scheduler';

export const EXEMPT = 'exempt';
export const CATCH_ALL = 'catch-all';

function limited(
  name: string,
  shares: number,
  lendablePercent: number,
  queuing?: [queues: number, handSize: number, queueLengthLimit: number],
): PriorityLevelConfiguration {
  return {
    metadata: { name },
    spec: {
      type: PRIORITY_LEVEL_LIMITED,
      limited: {
        nominalConcurrencyShares: shares,
        limitResponse: queuing
          ? {
              type: LIMIT_RESPONSE_QUEUE,
              queuing: { queues: queuing[0], handSize: queuing[1], queueLengthLimit: queuing[2] },
            }
          : { type: LIMIT_RESPONSE_REJECT },
        lendablePercent,
      },
    },
  };
}

const groups = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: SUBJECT_KIND_GROUP, group: { name } }));
const users = (...names: string[]): Subject[] =>
  names.map((name) => ({ kind: SUBJECT_KIND_USER, user: { name } }));
const systemServiceAccounts = (...names: string[]): Subject[] =>
  names.map((name) => ({
    kind: SUBJECT_KIND_SERVICE_ACCOUNT,
    serviceAccount: { namespace: SYSTEM_NAMESPACE, name },
  }));

function resourceRule(
  verbs: string[],
  apiGroups: string[],
  resources: string[],
  namespaces: string[],
  clusterScope: boolean,
): ResourcePolicyRule {
  return { verbs, apiGroups, resources, ...(clusterScope ? { clusterScope } : {}), namespaces };
}
const allResources = resourceRule([VERB_ALL], [API_GROUP_ALL], [RESOURCE_ALL], [NAMESPACE_EVERY], true);
const allNonResources: NonResourcePolicyRule = { verbs: [VERB_ALL], nonResourceURLs: [NON_RESOURCE_ALL] };

function schema(
  name: string,
  level: string,
  matchingPrecedence: number,
  distinguisher: string | undefined,
  rules: PolicyRulesWithSubjects,
): FlowSchema {
  return {
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: level },
      matchingPrecedence,
      ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}),
      rules: [rules],
    },
  };
}
const everything = (subjects: Subject[]): PolicyRulesWithSubjects => ({
  subjects,
  resourceRules: [allResources],
  nonResourceRules: [allNonResources],
});

export const mandatoryPriorityLevelConfigurations: readonly PriorityLevelConfiguration[] = [
  limited(CATCH_ALL, 5, 0),
  {
    metadata: { name: EXEMPT },
    spec: { type: PRIORITY_LEVEL_EXEMPT, exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  },
];

export const mandatoryFlowSchemas: readonly FlowSchema[] = [
  schema(EXEMPT, EXEMPT, 1, undefined, everything(groups(SYSTEM_PRIVILEGED_GROUP))),
  schema(
    CATCH_ALL,
    CATCH_ALL,
    10000,
    DISTINGUISHER_BY_USER,
    everything(groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED)),
  ),
];

export const suggestedPriorityLevelConfigurations: readonly PriorityLevelConfiguration[] = [
  limited('system', 30, 33, [64, 6, 50]),
  limited('node-high', 40, 25, [64, 6, 50]),
  limited('leader-election', 10, 0, [16, 4, 50]),
  limited('workload-high', 40, 50, [128, 6, 50]),
  limited('workload-low', 100, 90, [128, 6, 50]),
  limited('global-default', 20, 50, [128, 6, 50]),
];

const leaderElectionRules = (namespaceOfLocks: string): ResourcePolicyRule[] => [
  resourceRule(['get', 'create', 'update'], [''], ['endpoints', 'configmaps'], [namespaceOfLocks], false),
  resourceRule(['get', 'create', 'update'], ['coordination.k8s.io'], ['leases'], [NAMESPACE_EVERY], false),
];

export const suggestedFlowSchemas: readonly FlowSchema[] = [
  schema('system-nodes', 'system', 500, DISTINGUISHER_BY_USER, everything(groups(NODES_GROUP))),
  schema('system-node-high', 'node-high', 400, DISTINGUISHER_BY_USER, {
    subjects: groups(NODES_GROUP),
    resourceRules: [
      resourceRule([VERB_ALL], [''], ['nodes', 'nodes/status'], [NAMESPACE_EVERY], true),
      resourceRule([VERB_ALL], ['coordination.k8s.io'], ['leases'], [NAMESPACE_EVERY], false),
    ],
  }),
  schema('probes', EXEMPT, 2, undefined, {
    subjects: groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED),
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }],
  }),
  schema('system-leader-election', 'leader-election', 100, DISTINGUISHER_BY_USER, {
    subjects: [...users(CONTROLLER_MANAGER, SCHEDULER), ...systemServiceAccounts(NAME_ALL)],
    resourceRules: leaderElectionRules(SYSTEM_NAMESPACE),
  }),
  schema('endpoint-controller', 'workload-high', 150, DISTINGUISHER_BY_USER, {
    subjects: [
      ...users(CONTROLLER_MANAGER),
      ...systemServiceAccounts('endpoint-controller', 'endpointslicemirroring-controller'),
    ],
    resourceRules: [resourceRule(['get', 'create', 'update'], [''], ['endpoints'], [NAMESPACE_EVERY], false)],
  }),
  schema('workload-leader-election', 'leader-election', 200, DISTINGUISHER_BY_USER, {
    subjects: systemServiceAccounts(NAME_ALL),
    resourceRules: leaderElectionRules(NAMESPACE_EVERY),
  }),
  schema(
    'kube-controller-manager',
    'workload-high',
    800,
    DISTINGUISHER_BY_NAMESPACE,
    everything(users(CONTROLLER_MANAGER)),
  ),
  schema('kube-scheduler', 'workload-high', 800, DISTINGUISHER_BY_NAMESPACE, everything(users(SCHEDULER))),
  schema(
    'kube-system-service-accounts',
    'workload-high',
    900,
    DISTINGUISHER_BY_NAMESPACE,
    everything(systemServiceAccounts(NAME_ALL)),
  ),
  schema(
    'service-accounts',
    'workload-low',
    9000,
    DISTINGUISHER_BY_USER,
    everything(groups(ALL_SERVICE_ACCOUNTS)),
  ),
  schema(
    'global-default',
    'global-default',
    9900,
    DISTINGUISHER_BY_USER,
    everything(groups(ALL_UNAUTHENTICATED, ALL_AUTHENTICATED)),
  ),
];
