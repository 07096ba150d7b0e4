import type { rbac } from '@keel/auth';
import type { Storage } from '@keel/storage';
import type { ResourceDispatcher, ServedResource } from '../endpoints/dispatch.js';
import type { ScopeDefaults } from '../server/server.js';
import { installConfigMaps } from './configmaps.js';
import { installEndpoints } from './endpoints.js';
import { installFlowControl } from './flowcontrol.js';
import { installLeases } from './leases.js';
import { installLimitRanges } from './limitranges/index.js';
import { installNodes } from './nodes.js';
import { installPods } from './pods.js';
import { installPolicy } from './policy/index.js';
import { installPriorityClasses } from './priorityclasses.js';
import { installRbacResources } from './rbac/index.js';
import { installResourceQuotas } from './resourcequotas/index.js';
import { installReviews, type ReviewDeps } from './reviews.js';
import { installSecrets } from './secrets/index.js';
import { installServiceAccounts, type TokenRequestSettings } from './serviceaccounts/index.js';
import { installServices, type ServiceNetwork } from './services/index.js';
import { installStorageGroup, installVolumes } from './storage/index.js';
import { installWebhookConfigurations } from './webhookconfigurations/index.js';
import { installReplicationControllers } from './workloads/index.js';

export interface ClusterResourceDeps extends ReviewDeps {
  /** --allow-privileged: whether pod validation admits privileged containers. */
  readonly allowPrivileged: boolean;
  /** TokenRequest's settings; undefined without --service-account-signing-key-file. */
  readonly tokenRequests?: TokenRequestSettings | undefined;
  /** What RBAC's escalation checks read the rules a user holds from. */
  readonly rbacResolver: rbac.RBACAuthorizer;
  /** --service-cluster-ip-range and --service-node-port-range, which Services allocate from. */
  readonly serviceNetwork: ServiceNetwork;
}

/**
 * What a scheduler (and its leader election and delegated authentication) needs beyond
 * namespaces and events: nodes, pods and their binding, configmaps, endpoints, leases and the
 * review APIs, webhook configurations and PriorityClasses, and the kinds its informers list
 * (volumes, claims, controllers, storage classes, CSINodes, disruption budgets). Installed after
 * events, so the groups keep the real server's order in /apis (apps, events, authentication,
 * authorization, policy, rbac, storage, admissionregistration, scheduling, coordination, flowcontrol).
 */
export function installClusterResources(
  dispatcher: ResourceDispatcher,
  storage: Storage,
  defaults: ScopeDefaults,
  deps: ClusterResourceDeps,
): ServedResource[] {
  return [
    ...installConfigMaps(dispatcher, storage, defaults),
    ...installEndpoints(dispatcher, storage, defaults),
    ...installLimitRanges(dispatcher, storage, defaults),
    ...installNodes(dispatcher, storage, defaults),
    ...installPods(dispatcher, storage, defaults, { allowPrivileged: deps.allowPrivileged }),
    ...installVolumes(dispatcher, storage, defaults),
    ...installReplicationControllers(dispatcher, storage, defaults),
    ...installResourceQuotas(dispatcher, storage, defaults),
    ...installSecrets(dispatcher, storage, defaults),
    ...installServiceAccounts(dispatcher, storage, defaults, deps.tokenRequests),
    ...installServices(dispatcher, storage, defaults, deps.serviceNetwork),
    ...installReviews(dispatcher, defaults, deps),
    ...installPolicy(dispatcher, storage, defaults),
    ...installRbacResources(dispatcher, storage, defaults, {
      authorizer: deps.authorizer,
      resolver: deps.rbacResolver,
    }),
    ...installStorageGroup(dispatcher, storage, defaults),
    ...installWebhookConfigurations(dispatcher, storage, defaults),
    ...installPriorityClasses(dispatcher, storage, defaults),
    ...installLeases(dispatcher, storage, defaults),
    ...installFlowControl(dispatcher, storage, defaults),
  ];
}
