/**
 * The reference's default ClusterRoles (its golden file testdata/cluster-roles.yaml, v1.30 era),
 * in its order. Aggregated roles (admin, edit, view) start with no rules: the cluster-role
 * aggregation controller fills them from the roles their selectors pick.
 *
 * Names of API resources stay the real ones; the two leader-election lease names are Keel's
 * (`platform-scheduler`, `platform-controller-manager`) and the reference's (`kube-scheduler`,
 * `kube-controller-manager`), so unmodified reference components keep their default locks.
 */
import type { ClusterRole } from '../types.js';
import { clusterRole, EVENTS_RULE, READ, READ_WRITE, rule, urlRule, WRITE } from './metadata.js';

const TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

/** Lease names of Keel's components (kube-scheduler and kube-controller-manager in the reference). */
export const SCHEDULER_LEASE = 'platform-scheduler';
export const CONTROLLER_MANAGER_LEASE = 'platform-controller-manager';
/** The reference components' default lease names (test/interop runs kube-scheduler 1.20 on Keel). */
const REFERENCE_SCHEDULER_LEASE = 'kube-scheduler';
const REFERENCE_CONTROLLER_MANAGER_LEASE = 'kube-controller-manager';

const approver = (signer: string) => rule(['approve'], ['certificates.k8s.io'], ['signers'], [signer]);

export const CLUSTER_ROLES: readonly ClusterRole[] = [
  clusterRole('admin', undefined, { aggregateFrom: TO_ADMIN }),
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urlRule(['*'], ['*'])]),
  clusterRole('edit', undefined, { aggregateFrom: TO_EDIT, labels: { [TO_ADMIN]: 'true' } }),
  clusterRole(
    'system:aggregate-to-admin',
    [
      rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      rule(READ_WRITE, ['rbac.authorization.k8s.io'], ['rolebindings', 'roles']),
    ],
    { labels: { [TO_ADMIN]: 'true' } },
  ),
  clusterRole(
    'system:aggregate-to-edit',
    [
      rule(
        READ,
        [''],
        ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'],
      ),
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      rule(['create'], [''], ['pods/eviction']),
      rule(
        WRITE,
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(
        WRITE,
        ['apps'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'replicasets',
          'replicasets/scale',
          'statefulsets',
          'statefulsets/scale',
        ],
      ),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(WRITE, ['batch'], ['cronjobs', 'jobs']),
      rule(
        WRITE,
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
      ),
      rule(WRITE, ['policy'], ['poddisruptionbudgets']),
      rule(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ],
    { labels: { [TO_EDIT]: 'true' } },
  ),
  clusterRole(
    'system:aggregate-to-view',
    [
      rule(
        READ,
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      rule(
        READ,
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['discovery.k8s.io'], ['endpointslices']),
      rule(
        READ,
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      rule(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      rule(
        READ,
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
      ),
      rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      rule(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    { labels: { [TO_VIEW]: 'true' } },
  ),
  clusterRole('system:auth-delegator', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ]),
  clusterRole('system:basic-user', [
    rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient']),
  ]),
  clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
    rule(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient']),
  ]),
  clusterRole('system:certificates.k8s.io:kube-apiserver-client-approver', [
    approver('kubernetes.io/kube-apiserver-client'),
  ]),
  clusterRole('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [
    approver('kubernetes.io/kube-apiserver-client-kubelet'),
  ]),
  clusterRole('system:certificates.k8s.io:kubelet-serving-approver', [
    approver('kubernetes.io/kubelet-serving'),
  ]),
  clusterRole('system:certificates.k8s.io:legacy-unknown-approver', [
    approver('kubernetes.io/legacy-unknown'),
  ]),
  clusterRole('system:discovery', [
    urlRule(
      ['get'],
      [
        '/api',
        '/api/*',
        '/apis',
        '/apis/*',
        '/healthz',
        '/livez',
        '/openapi',
        '/openapi/*',
        '/readyz',
        '/version',
        '/version/',
      ],
    ),
  ]),
  clusterRole('system:heapster', [
    rule(READ, [''], ['events', 'namespaces', 'nodes', 'pods']),
    rule(READ, ['extensions'], ['deployments']),
  ]),
  clusterRole('system:kube-aggregator', [rule(READ, [''], ['endpoints', 'services'])]),
  clusterRole('system:kube-controller-manager', [
    EVENTS_RULE,
    rule(['create'], ['coordination.k8s.io'], ['leases']),
    rule(
      ['get', 'update'],
      ['coordination.k8s.io'],
      ['leases'],
      [CONTROLLER_MANAGER_LEASE, REFERENCE_CONTROLLER_MANAGER_LEASE],
    ),
    rule(['create'], [''], ['secrets', 'serviceaccounts']),
    rule(['delete'], [''], ['secrets']),
    rule(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
    rule(['update'], [''], ['secrets', 'serviceaccounts']),
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    rule(['list', 'watch'], ['*'], ['*']),
    rule(['create'], [''], ['serviceaccounts/token']),
  ]),
  clusterRole('system:kube-dns', [rule(['list', 'watch'], [''], ['endpoints', 'services'])]),
  clusterRole('system:kube-scheduler', [
    EVENTS_RULE,
    rule(['create'], ['coordination.k8s.io'], ['leases']),
    rule(
      ['get', 'update'],
      ['coordination.k8s.io'],
      ['leases'],
      [SCHEDULER_LEASE, REFERENCE_SCHEDULER_LEASE],
    ),
    rule(READ, [''], ['nodes']),
    rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    rule(['create'], [''], ['bindings', 'pods/binding']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(READ, [''], ['replicationcontrollers', 'services']),
    rule(READ, ['apps', 'extensions'], ['replicasets']),
    rule(READ, ['apps'], ['statefulsets']),
    rule(READ, ['policy'], ['poddisruptionbudgets']),
    rule(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    rule(READ, ['storage.k8s.io'], ['csinodes']),
    rule(READ, [''], ['namespaces']),
    rule(READ, ['storage.k8s.io'], ['csidrivers']),
    rule(READ, ['storage.k8s.io'], ['csistoragecapacities']),
  ]),
  clusterRole('system:kubelet-api-admin', [
    rule(READ, [''], ['nodes']),
    rule(['proxy'], [''], ['nodes']),
    rule(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
  ]),
  clusterRole('system:monitoring', [
    urlRule(
      ['get'],
      ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'],
    ),
  ]),
  clusterRole('system:node', [
    rule(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
    rule(READ, [''], ['services']),
    rule(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    rule(['patch', 'update'], [''], ['nodes/status']),
    rule(['patch', 'update'], [''], ['nodes']),
    rule(['create', 'patch', 'update'], [''], ['events']),
    rule(READ, [''], ['pods']),
    rule(['create', 'delete'], [''], ['pods']),
    rule(['patch', 'update'], [''], ['pods/status']),
    rule(['create'], [''], ['pods/eviction']),
    rule(READ, [''], ['configmaps', 'secrets']),
    rule(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    rule(['get'], [''], ['endpoints']),
    rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
    rule(['get'], ['storage.k8s.io'], ['volumeattachments']),
    rule(['create'], [''], ['serviceaccounts/token']),
    rule(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
    rule(READ, ['storage.k8s.io'], ['csidrivers']),
    rule(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
    rule(READ, ['node.k8s.io'], ['runtimeclasses']),
  ]),
  clusterRole('system:node-bootstrapper', [
    rule(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
  ]),
  clusterRole('system:node-problem-detector', [
    rule(['get'], [''], ['nodes']),
    rule(['patch'], [''], ['nodes/status']),
    EVENTS_RULE,
  ]),
  clusterRole('system:node-proxier', [
    rule(['list', 'watch'], [''], ['endpoints', 'services']),
    rule(READ, [''], ['nodes']),
    EVENTS_RULE,
    rule(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
  ]),
  clusterRole('system:persistent-volume-provisioner', [
    rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
    rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    rule(READ, ['storage.k8s.io'], ['storageclasses']),
    rule(['watch'], [''], ['events']),
    EVENTS_RULE,
  ]),
  clusterRole('system:public-info-viewer', [
    urlRule(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/']),
  ]),
  clusterRole('system:service-account-issuer-discovery', [
    urlRule(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks']),
  ]),
  clusterRole('system:volume-scheduler', [
    rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
    rule(READ, ['storage.k8s.io'], ['storageclasses']),
    rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
  ]),
  clusterRole('view', undefined, { aggregateFrom: TO_VIEW, labels: { [TO_EDIT]: 'true' } }),
];
