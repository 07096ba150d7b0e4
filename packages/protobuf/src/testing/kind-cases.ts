/**
 * The round-trip cases of packages/protobuf's tests: one object of every kind Keel serves (and
 * of the meta kinds every group carries), each with the field-number path of one value and that
 * value as the vendored .proto files place it. The server-side counterpart, which checks the
 * list against discovery, is apps/apiserver/test/protobuf-kinds.test.ts.
 */
type Json = Record<string, unknown>;
const meta = (name: string, extra: Json = {}): Json => ({
  name,
  namespace: 'ns1',
  uid: 'u-1',
  resourceVersion: '42',
  generation: 3,
  creationTimestamp: '2024-05-06T07:08:09Z',
  labels: { app: 'web' },
  ...extra,
});

/** [object, field-number path, the value there] (read by number, not through Keel's mapping). */
export const CASES: readonly [Json, readonly number[], string | number][] = [
  [
    {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: meta('p'),
      spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
    },
    [2, 10],
    'n1',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: meta('n1'),
      spec: { unschedulable: true, podCIDR: '10.0.0.0/24' },
    },
    [2, 1],
    '10.0.0.0/24',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: meta('ns1'),
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    },
    [3, 1],
    'Active',
  ],
  [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta('cm'), data: { a: '1' }, immutable: true }, [4], 1],
  [
    { apiVersion: 'v1', kind: 'Secret', metadata: meta('s'), data: { k: 'AAEC' }, type: 'Opaque' },
    [3],
    'Opaque',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta('svc'),
      spec: { type: 'NodePort', ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }] },
    },
    [2, 4],
    'NodePort',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: meta('svc'),
      subsets: [{ addresses: [{ ip: '10.0.0.1' }] }],
    },
    [2, 1, 1],
    '10.0.0.1',
  ],
  [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta('sa'), automountServiceAccountToken: false },
    [4],
    0,
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: meta('pv'),
      spec: { storageClassName: 'fast', capacity: { storage: '10Gi' }, hostPath: { path: '/d' } },
    },
    [2, 6],
    'fast',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: meta('pvc'),
      spec: { volumeName: 'pv', accessModes: ['ReadWriteOnce'] },
    },
    [2, 3],
    'pv',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: meta('rc'),
      spec: { replicas: 0, selector: { a: 'b' } },
    },
    [2, 1],
    0,
  ],
  [
    { apiVersion: 'v1', kind: 'ResourceQuota', metadata: meta('q'), spec: { hard: { pods: '10' } } },
    [2, 1, 1],
    'pods',
  ],
  [
    { apiVersion: 'v1', kind: 'LimitRange', metadata: meta('lr'), spec: { limits: [{ type: 'Container' }] } },
    [2, 1, 1],
    'Container',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: meta('e'),
      reason: 'Scheduled',
      count: 2,
      firstTimestamp: '2024-05-06T07:08:09Z',
      eventTime: '2024-05-06T07:08:09.123456Z',
    },
    [3],
    'Scheduled',
  ],
  [
    { apiVersion: 'v1', kind: 'Binding', metadata: meta('p'), target: { kind: 'Node', name: 'n1' } },
    [2, 3],
    'n1',
  ],
  [
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: meta('rs'),
      spec: { replicas: 2, selector: { matchLabels: { a: 'b' } } },
    },
    [2, 1],
    2,
  ],
  [
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: meta('ss'),
      spec: { serviceName: 'db', replicas: 1 },
    },
    [2, 5],
    'db',
  ],
  [
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta('pdb'),
      spec: { minAvailable: 1 },
    },
    [2, 1, 2],
    1,
  ],
  [
    {
      apiVersion: 'policy/v1beta1',
      kind: 'PodDisruptionBudget',
      metadata: meta('pdb'),
      spec: { maxUnavailable: '50%' },
    },
    [2, 3, 3],
    '50%',
  ],
  [
    {
      apiVersion: 'policy/v1',
      kind: 'Eviction',
      metadata: meta('p'),
      deleteOptions: { gracePeriodSeconds: 0 },
    },
    [2, 1],
    0,
  ],
  [
    {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: meta('l'),
      spec: { holderIdentity: 'h', leaseDurationSeconds: 15 },
    },
    [2, 1],
    'h',
  ],
  [
    {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: meta('e'),
      reason: 'Scheduled',
      eventTime: '2024-05-06T07:08:09.123456Z',
      reportingController: 'sched',
    },
    [4],
    'sched',
  ],
  [
    {
      apiVersion: 'events.k8s.io/v1beta1',
      kind: 'Event',
      metadata: meta('e'),
      reason: 'R',
      eventTime: '2024-05-06T07:08:09.000001Z',
    },
    [7],
    'R',
  ],
  [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: meta('sc'),
      provisioner: 'x.io/p',
      volumeBindingMode: 'WaitForFirstConsumer',
    },
    [7],
    'WaitForFirstConsumer',
  ],
  [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSINode',
      metadata: meta('n1'),
      spec: { drivers: [{ name: 'd', nodeID: 'n1', topologyKeys: null }] },
    },
    [2, 1, 2],
    'n1',
  ],
  [
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: meta('pc'),
      value: 1000,
      preemptionPolicy: 'Never',
    },
    [5],
    'Never',
  ],
  [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: meta('r'),
      rules: [{ verbs: ['get'], resources: ['pods'] }],
    },
    [2, 3],
    'pods',
  ],
  [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta('rb'),
      roleRef: { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' },
    },
    [3, 3],
    'r',
  ],
  [
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: { user: 'jane', extra: { s: ['a'] } },
      status: { allowed: true },
    },
    [2, 3],
    'jane',
  ],
  [
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenReview',
      metadata: {},
      spec: { token: 't' },
      status: { authenticated: true, user: { username: 'u' } },
    },
    [3, 2, 1],
    'u',
  ],
  [
    {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: meta('sa'),
      spec: { audiences: ['a'], expirationSeconds: 600 },
    },
    [2, 4],
    600,
  ],
  [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'FlowSchema',
      metadata: meta('fs'),
      spec: { matchingPrecedence: 500, priorityLevelConfiguration: { name: 'global' } },
    },
    [2, 2],
    500,
  ],
  [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: meta('w'),
      webhooks: [{ name: 'w.example.com', sideEffects: 'None', admissionReviewVersions: ['v1'] }],
    },
    [2, 1],
    'w.example.com',
  ],
  [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIDriver',
      metadata: meta('d.example.com'),
      spec: { attachRequired: false, tokenRequests: [{ audience: 'a', expirationSeconds: 3600 }] },
    },
    // CSIDriverSpec.tokenRequests(6) → TokenRequest.expirationSeconds(2), an int64.
    [2, 6, 2],
    3600,
  ],
  [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'CSIStorageCapacity',
      metadata: meta('cap'),
      storageClassName: 'fast',
      capacity: '10Gi',
      maximumVolumeSize: '1Gi',
    },
    [5, 1],
    '1Gi',
  ],
  [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: meta('r'),
      rules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
    },
    [2, 1],
    'get',
  ],
  [
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: meta('crb'),
      subjects: [{ kind: 'ServiceAccount', name: 'sa', namespace: 'ns1' }],
      roleRef: { kind: 'ClusterRole', name: 'view', apiGroup: 'rbac.authorization.k8s.io' },
    },
    [2, 4],
    'ns1',
  ],
  [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: meta('m'),
      webhooks: [
        {
          name: 'm.example.com',
          sideEffects: 'None',
          reinvocationPolicy: 'IfNeeded',
          admissionReviewVersions: ['v1', 'v1beta1'],
        },
      ],
    },
    [2, 10],
    'IfNeeded',
  ],
  [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1',
      kind: 'PriorityLevelConfiguration',
      metadata: meta('pl'),
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0 } },
    },
    [2, 2, 1],
    5,
  ],
  [
    {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1',
      kind: 'PriorityLevelConfiguration',
      metadata: meta('pl'),
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } },
    },
    [2, 2, 1],
    7,
  ],
  ...['v1beta1', 'v1beta2', 'v1beta3'].map((v): [Json, readonly number[], string | number] => [
    {
      apiVersion: `flowcontrol.apiserver.k8s.io/${v}`,
      kind: 'FlowSchema',
      metadata: meta('fs'),
      spec: { matchingPrecedence: 900, priorityLevelConfiguration: { name: 'workload-low' } },
    },
    [2, 1, 1],
    'workload-low',
  ]),
  ...['v1', 'v1beta1', 'v1alpha1'].map((v): [Json, readonly number[], string | number] => [
    {
      apiVersion: `authentication.k8s.io/${v}`,
      kind: 'SelfSubjectReview',
      metadata: {},
      status: { userInfo: { username: 'jane', groups: ['dev'], extra: { s: ['a'] } } },
    },
    [2, 1, 1],
    'jane',
  ]),
  [
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'LocalSubjectAccessReview',
      metadata: { namespace: 'ns1' },
      spec: { user: 'jane', resourceAttributes: { namespace: 'ns1', verb: 'get', resource: 'pods' } },
      status: { allowed: false },
    },
    [2, 1, 5],
    'pods',
  ],
  [
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
      status: { allowed: true },
    },
    [2, 2, 1],
    '/healthz',
  ],
  [
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      metadata: {},
      spec: { namespace: 'ns1' },
      status: {
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        incomplete: false,
      },
    },
    [2, 1],
    'ns1',
  ],
  [
    {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: meta('web'),
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=web' },
    },
    [3, 2],
    'app=web',
  ],
  [
    {
      apiVersion: 'v1',
      kind: 'Status',
      metadata: {},
      status: 'Failure',
      message: 'pods "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'pods' },
      code: 404,
    },
    [6],
    404,
  ],
  [
    { apiVersion: 'apps/v1', kind: 'DeleteOptions', gracePeriodSeconds: 30, propagationPolicy: 'Background' },
    [4],
    'Background',
  ],
];
