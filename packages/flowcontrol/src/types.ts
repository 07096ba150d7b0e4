/**
 * flowcontrol.apiserver.k8s.io objects in their stored (internal) form, which is the v1 wire
 * form: older versions convert to it (assuredConcurrencyShares is v1's nominalConcurrencyShares).
 */
import type { ObjectMeta } from '@keel/resource';

export const GROUP = 'flowcontrol.apiserver.k8s.io';

export interface UserSubject {
  name: string;
}
export interface GroupSubject {
  name: string;
}
export interface ServiceAccountSubject {
  namespace: string;
  name: string;
}
export interface Subject {
  kind: string;
  user?: UserSubject;
  group?: GroupSubject;
  serviceAccount?: ServiceAccountSubject;
}
export interface ResourcePolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  clusterScope?: boolean;
  namespaces?: string[];
}
export interface NonResourcePolicyRule {
  verbs?: string[];
  nonResourceURLs?: string[];
}
export interface PolicyRulesWithSubjects {
  subjects?: Subject[];
  resourceRules?: ResourcePolicyRule[];
  nonResourceRules?: NonResourcePolicyRule[];
}
export interface Condition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface FlowSchemaSpec {
  priorityLevelConfiguration: { name: string };
  matchingPrecedence?: number;
  distinguisherMethod?: { type: string };
  rules?: PolicyRulesWithSubjects[];
}
export interface FlowSchema {
  metadata: ObjectMeta;
  spec: FlowSchemaSpec;
  status?: { conditions?: Condition[] };
}

export interface QueuingConfiguration {
  queues?: number;
  handSize?: number;
  queueLengthLimit?: number;
}
export interface LimitResponse {
  type: string;
  queuing?: QueuingConfiguration;
}
export interface LimitedPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  limitResponse: LimitResponse;
  lendablePercent?: number;
  borrowingLimitPercent?: number;
}
export interface ExemptPriorityLevelConfiguration {
  nominalConcurrencyShares?: number;
  lendablePercent?: number;
}
export interface PriorityLevelConfigurationSpec {
  type: string;
  limited?: LimitedPriorityLevelConfiguration;
  exempt?: ExemptPriorityLevelConfiguration;
}
export interface PriorityLevelConfiguration {
  metadata: ObjectMeta;
  spec: PriorityLevelConfigurationSpec;
  status?: { conditions?: Condition[] };
}

export const PRIORITY_LEVEL_EXEMPT = 'Exempt';
export const PRIORITY_LEVEL_LIMITED = 'Limited';
export const LIMIT_RESPONSE_QUEUE = 'Queue';
export const LIMIT_RESPONSE_REJECT = 'Reject';
export const DISTINGUISHER_BY_USER = 'ByUser';
export const DISTINGUISHER_BY_NAMESPACE = 'ByNamespace';
export const SUBJECT_KIND_USER = 'User';
export const SUBJECT_KIND_GROUP = 'Group';
export const SUBJECT_KIND_SERVICE_ACCOUNT = 'ServiceAccount';
/** The wildcards of rules and subjects. */
export const VERB_ALL = '*';
export const API_GROUP_ALL = '*';
export const RESOURCE_ALL = '*';
export const NON_RESOURCE_ALL = '*';
export const NAMESPACE_EVERY = '*';
export const NAME_ALL = '*';

/** The annotation whose value says whether the bootstrap hook keeps an object's spec current. */
export const AUTO_UPDATE_ANNOTATION = 'apf.kubernetes.io/autoupdate-spec';
/** The condition the config consumer keeps on a FlowSchema whose priority level does not exist. */
export const CONDITION_DANGLING = 'Dangling';
