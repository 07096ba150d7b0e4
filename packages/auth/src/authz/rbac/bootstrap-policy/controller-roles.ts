/**
 * The ClusterRoles and ClusterRoleBindings of the reference's controllers (testdata/
 * controller-roles.yaml and controller-role-bindings.yaml), one `system:controller:<name>` role per
 * controller bound to the service account `<name>` of the system namespace (`platform-system`).
 * The set is the v1.30 one: roles of controllers added later or behind feature gates (dynamic
 * resource allocation, service CIDRs, SELinux warnings, volume attributes classes) are left out.
 */
import type { ClusterRole, ClusterRoleBinding, PolicyRule } from '../types.js';
import { clusterRole, clusterRoleBinding, EVENTS_RULE, READ, rule, serviceAccount } from './metadata.js';

const CRUD_WATCH = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

/** Controller name to its rules, in the reference's (alphabetical) order. */
const CONTROLLERS: readonly (readonly [string, PolicyRule[]])[] = [
  [
    'attachdetach-controller',
    [
      rule(['list', 'watch'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
      rule(READ, [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['list', 'watch'], [''], ['pods']),
      EVENTS_RULE,
      rule(['create', 'delete', 'get', 'list', 'watch'], ['storage.k8s.io'], ['volumeattachments']),
      rule(READ, ['storage.k8s.io'], ['csidrivers']),
      rule(READ, ['storage.k8s.io'], ['csinodes']),
    ],
  ],
  [
    'certificate-controller',
    [
      rule(['delete', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
      rule(
        ['update'],
        ['certificates.k8s.io'],
        ['certificatesigningrequests/approval', 'certificatesigningrequests/status'],
      ),
      rule(
        ['approve'],
        ['certificates.k8s.io'],
        ['signers'],
        ['kubernetes.io/kube-apiserver-client-kubelet'],
      ),
      rule(
        ['sign'],
        ['certificates.k8s.io'],
        ['signers'],
        [
          'kubernetes.io/kube-apiserver-client',
          'kubernetes.io/kube-apiserver-client-kubelet',
          'kubernetes.io/kubelet-serving',
          'kubernetes.io/legacy-unknown',
        ],
      ),
      rule(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
      EVENTS_RULE,
    ],
  ],
  [
    'clusterrole-aggregation-controller',
    [
      rule(
        ['escalate', 'get', 'list', 'patch', 'update', 'watch'],
        ['rbac.authorization.k8s.io'],
        ['clusterroles'],
      ),
    ],
  ],
  [
    'cronjob-controller',
    [
      rule(['get', 'list', 'update', 'watch'], ['batch'], ['cronjobs']),
      rule(CRUD_WATCH, ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['cronjobs/status']),
      rule(['update'], ['batch'], ['cronjobs/finalizers']),
      rule(['delete', 'list', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'daemon-set-controller',
    [
      rule(READ, ['apps', 'extensions'], ['daemonsets']),
      rule(['update'], ['apps', 'extensions'], ['daemonsets/status']),
      rule(['update'], ['apps', 'extensions'], ['daemonsets/finalizers']),
      rule(['list', 'watch'], [''], ['nodes']),
      rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      rule(['create'], [''], ['pods/binding']),
      rule(CRUD_WATCH, ['apps'], ['controllerrevisions']),
      EVENTS_RULE,
    ],
  ],
  [
    'deployment-controller',
    [
      rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['deployments']),
      rule(['update'], ['apps', 'extensions'], ['deployments/status']),
      rule(['update'], ['apps', 'extensions'], ['deployments/finalizers']),
      rule(CRUD_WATCH, ['apps', 'extensions'], ['replicasets']),
      rule(['get', 'list', 'update', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'disruption-controller',
    [
      rule(READ, ['apps', 'extensions'], ['deployments']),
      rule(READ, ['apps', 'extensions'], ['replicasets']),
      rule(READ, [''], ['replicationcontrollers']),
      rule(READ, ['policy'], ['poddisruptionbudgets']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(['update'], ['policy'], ['poddisruptionbudgets/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['get'], ['*'], ['*/scale']),
      EVENTS_RULE,
    ],
  ],
  [
    'endpoint-controller',
    [
      rule(READ, [''], ['pods', 'services']),
      rule(['create', 'delete', 'get', 'list', 'update', 'watch'], [''], ['endpoints']),
      rule(['create'], [''], ['endpoints/restricted']),
      EVENTS_RULE,
    ],
  ],
  [
    'endpointslice-controller',
    [
      rule(READ, [''], ['nodes', 'pods', 'services']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
      EVENTS_RULE,
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      rule(READ, [''], ['endpoints', 'services']),
      rule(['update'], [''], ['services/finalizers']),
      rule(['update'], [''], ['endpoints/finalizers']),
      rule(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
      EVENTS_RULE,
    ],
  ],
  [
    'ephemeral-volume-controller',
    [
      rule(READ, [''], ['pods']),
      rule(['update'], [''], ['pods/finalizers']),
      rule(['create', 'get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
      EVENTS_RULE,
    ],
  ],
  [
    'expand-controller',
    [
      rule(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
      rule(['patch', 'update'], [''], ['persistentvolumeclaims/status']),
      rule(READ, [''], ['persistentvolumeclaims']),
      EVENTS_RULE,
    ],
  ],
  [
    'generic-garbage-collector',
    [rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']), EVENTS_RULE],
  ],
  [
    'horizontal-pod-autoscaler',
    [
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers']),
      rule(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
      rule(['get', 'update'], ['*'], ['*/scale']),
      rule(['list', 'watch'], [''], ['pods']),
      rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
      rule(READ, ['custom.metrics.k8s.io'], ['*']),
      rule(READ, ['external.metrics.k8s.io'], ['*']),
      EVENTS_RULE,
    ],
  ],
  [
    'job-controller',
    [
      rule(['get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
      rule(['update'], ['batch'], ['jobs/status']),
      rule(['update'], ['batch'], ['jobs/finalizers']),
      rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'legacy-service-account-token-cleaner',
    [
      rule(['get'], [''], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
      rule(['delete', 'patch'], [''], ['secrets']),
    ],
  ],
  [
    'namespace-controller',
    [
      rule(['delete', 'get', 'list', 'watch'], [''], ['namespaces']),
      rule(['update'], [''], ['namespaces/finalize', 'namespaces/status']),
      rule(['delete', 'deletecollection', 'get', 'list', 'watch'], ['*'], ['*']),
    ],
  ],
  [
    'node-controller',
    [
      rule(['delete', 'get', 'list', 'patch', 'update', 'watch'], [''], ['nodes']),
      rule(['patch', 'update'], [''], ['nodes/status']),
      rule(['patch', 'update'], [''], ['pods/status']),
      rule(['delete', 'get', 'list', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'persistent-volume-binder',
    [
      rule(['create', 'delete', 'get', 'list', 'update', 'watch'], [''], ['persistentvolumes']),
      rule(['update'], [''], ['persistentvolumes/status']),
      rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['persistentvolumeclaims/status']),
      rule(['create', 'delete', 'get', 'list', 'watch'], [''], ['pods']),
      rule(READ, ['storage.k8s.io'], ['storageclasses']),
      rule(['list', 'watch'], [''], ['nodes']),
      EVENTS_RULE,
      rule(['watch'], [''], ['events']),
    ],
  ],
  [
    'pod-garbage-collector',
    [
      rule(['delete', 'list', 'watch'], [''], ['pods']),
      rule(READ, [''], ['nodes']),
      rule(['patch'], [''], ['pods/status']),
    ],
  ],
  [
    'pv-protection-controller',
    [rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumes']), EVENTS_RULE],
  ],
  [
    'pvc-protection-controller',
    [
      rule(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['persistentvolumeclaims/status']),
      rule(READ, [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'replicaset-controller',
    [
      rule(['get', 'list', 'update', 'watch'], ['apps', 'extensions'], ['replicasets']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/status']),
      rule(['update'], ['apps', 'extensions'], ['replicasets/finalizers']),
      rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'replication-controller',
    [
      rule(['get', 'list', 'update', 'watch'], [''], ['replicationcontrollers']),
      rule(['update'], [''], ['replicationcontrollers/status']),
      rule(['update'], [''], ['replicationcontrollers/finalizers']),
      rule(['create', 'delete', 'list', 'patch', 'watch'], [''], ['pods']),
      EVENTS_RULE,
    ],
  ],
  [
    'resourcequota-controller',
    [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [''], ['resourcequotas/status']), EVENTS_RULE],
  ],
  ['root-ca-cert-publisher', [rule(['create', 'update'], [''], ['configmaps']), EVENTS_RULE]],
  [
    'route-controller',
    [rule(['list', 'watch'], [''], ['nodes']), rule(['patch'], [''], ['nodes/status']), EVENTS_RULE],
  ],
  ['service-account-controller', [rule(['create'], [''], ['serviceaccounts']), EVENTS_RULE]],
  [
    'service-controller',
    [
      rule(READ, [''], ['services']),
      rule(['patch', 'update'], [''], ['services/status']),
      rule(['list', 'watch'], [''], ['nodes']),
      EVENTS_RULE,
    ],
  ],
  [
    'statefulset-controller',
    [
      rule(['list', 'watch'], [''], ['pods']),
      rule(READ, ['apps'], ['statefulsets']),
      rule(['update'], ['apps'], ['statefulsets/status']),
      rule(['update'], ['apps'], ['statefulsets/finalizers']),
      rule(['create', 'delete', 'get', 'patch', 'update'], [''], ['pods']),
      rule(CRUD_WATCH, ['apps'], ['controllerrevisions']),
      rule(['create', 'get', 'list', 'watch'], [''], ['persistentvolumeclaims']),
      rule(['delete', 'update'], [''], ['persistentvolumeclaims']),
      rule(['update'], [''], ['pods/finalizers']),
      EVENTS_RULE,
    ],
  ],
  [
    'ttl-after-finished-controller',
    [rule(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), EVENTS_RULE],
  ],
  ['ttl-controller', [rule(['list', 'patch', 'update', 'watch'], [''], ['nodes']), EVENTS_RULE]],
  [
    'validatingadmissionpolicy-status-controller',
    [
      rule(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
      rule(
        ['get', 'patch', 'update'],
        ['admissionregistration.k8s.io'],
        ['validatingadmissionpolicies/status'],
      ),
      EVENTS_RULE,
    ],
  ],
];

const roleName = (controller: string) => `system:controller:${controller}`;

export const CONTROLLER_ROLES: readonly ClusterRole[] = CONTROLLERS.map(([name, rules]) =>
  clusterRole(roleName(name), rules),
);

export const CONTROLLER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = CONTROLLERS.map(([name]) =>
  clusterRoleBinding(roleName(name), [serviceAccount(name)]),
);
