/**
 * One object of every built-in kind Keel serves, for the protobuf round trips
 * (test/protobuf-kinds.test.ts), keyed `<groupVersion>/<resource>` as discovery names them.
 * Each is written as a real client writes it (kubectl's `creationTimestamp: null` in templates,
 * client-go's `eventTime: null`) and carries the field types whose mapping is not plain: times
 * and micro-times, quantities, int-or-strings, int64s, bytes, maps, inlined structs (volume
 * sources, probe handlers), false booleans behind pointers and empty objects.
 */
type Json = Record<string, unknown>;

const template = (app: string): Json => ({
  metadata: { creationTimestamp: null, labels: { app } },
  spec: {
    containers: [
      {
        name: 'app',
        image: 'registry.example/app:1.0',
        resources: {},
        ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
        livenessProbe: { tcpSocket: { port: 'http' }, initialDelaySeconds: 3 },
      },
    ],
    terminationGracePeriodSeconds: 30,
  },
});

const pod = (name: string): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { app: 'rich' }, annotations: { note: 'x' } },
  spec: {
    activeDeadlineSeconds: 600,
    terminationGracePeriodSeconds: 10,
    automountServiceAccountToken: false,
    nodeSelector: { disk: 'ssd' },
    tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }],
    affinity: {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          {
            weight: 10,
            podAffinityTerm: { topologyKey: 'zone', labelSelector: { matchLabels: { a: 'b' } } },
          },
        ],
      },
    },
    topologySpreadConstraints: [
      { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
    ],
    securityContext: { runAsUser: 1000, fsGroup: 2000, runAsNonRoot: true },
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: 'claim' } },
      { name: 'scratch', emptyDir: { sizeLimit: '1Gi' } },
      {
        name: 'token',
        projected: { sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] },
      },
    ],
    initContainers: [{ name: 'init', image: 'busybox', command: ['true'] }],
    containers: [
      {
        name: 'app',
        image: 'registry.example/app:1.0',
        env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
        resources: { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1' } },
        ports: [{ containerPort: 8080, hostPort: 80, protocol: 'TCP', name: 'http' }],
        readinessProbe: { httpGet: { path: '/ready', port: 'http' }, periodSeconds: 5 },
        livenessProbe: { httpGet: { path: '/live', port: 8080 } },
        volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: false }],
      },
    ],
  },
});

const flowSchema = (v: string): Json => ({
  metadata: { name: `pb-fs-${v}` },
  spec: {
    matchingPrecedence: 9000,
    priorityLevelConfiguration: { name: 'workload-low' },
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [{ kind: 'User', user: { name: 'pb-nobody' } }],
        resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/pb-nothing'] }],
      },
    ],
  },
});

const priorityLevel = (v: string): Json => ({
  metadata: { name: `pb-pl-${v}` },
  spec: {
    type: 'Limited',
    limited: {
      [v === 'v1beta1' || v === 'v1beta2' ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares']: 5,
      limitResponse: { type: 'Queue', queuing: { queues: 8, handSize: 2, queueLengthLimit: 10 } },
    },
  },
});

const webhook = (name: string, extra: Json): Json => ({
  name,
  clientConfig: { url: 'https://hooks.example/never', caBundle: 'AAEC' },
  // Matches nothing the suites create, and ignored if ever called.
  rules: [{ operations: ['CREATE'], apiGroups: ['pb.example'], apiVersions: ['v1'], resources: ['widgets'] }],
  failurePolicy: 'Ignore',
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  timeoutSeconds: 5,
  objectSelector: { matchExpressions: [{ key: 'pb', operator: 'Exists' }] },
  ...extra,
});

const budget = (v: string): Json => ({
  metadata: { name: `pb-pdb-${v}` },
  spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'rich' } } },
});

/** Objects whose POST creates something, by `<groupVersion>/<resource>`. */
export function kindFixtures(ns: string): Record<string, Json> {
  const fixtures: Record<string, Json> = {
    'v1/configmaps': {
      metadata: { name: 'pb-cm' },
      data: { a: '1', b: '' },
      binaryData: { bin: 'AAEC/w==' },
    },
    'v1/endpoints': {
      metadata: { name: 'pb-ep' },
      subsets: [
        {
          addresses: [
            { ip: '10.0.0.1', nodeName: 'pb-node', targetRef: { kind: 'Pod', name: 'p', namespace: ns } },
          ],
          notReadyAddresses: [{ ip: '10.0.0.2' }],
          ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
        },
      ],
    },
    'v1/events': {
      metadata: { name: 'pb-ev.1' },
      involvedObject: { kind: 'Pod', namespace: ns, name: 'p', uid: 'u-1', apiVersion: 'v1' },
      reason: 'Started',
      message: 'started',
      source: { component: 'kubelet', host: 'pb-node' },
      firstTimestamp: '2024-05-06T07:08:09Z',
      lastTimestamp: '2024-05-06T07:08:19Z',
      count: 2,
      type: 'Normal',
      eventTime: null,
      reportingComponent: '',
      reportingInstance: '',
    },
    'v1/limitranges': {
      metadata: { name: 'pb-lr' },
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, default: { cpu: '500m' }, defaultRequest: { cpu: '100m' } },
        ],
      },
    },
    'v1/namespaces': { metadata: { name: `${ns}-child`, labels: { team: 'pb' } }, spec: {} },
    'v1/nodes': {
      metadata: { name: 'pb-node', labels: { 'kubernetes.io/hostname': 'pb-node', zone: 'a' } },
      spec: {
        podCIDR: '10.244.1.0/24',
        podCIDRs: ['10.244.1.0/24'],
        taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule', timeAdded: '2024-05-06T07:08:09Z' }],
      },
      status: {
        capacity: { cpu: '4', memory: '8Gi', pods: '110' },
        allocatable: { cpu: '3800m', memory: '7Gi', pods: '110' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastHeartbeatTime: '2024-05-06T07:08:09Z',
            lastTransitionTime: '2024-05-06T07:08:09Z',
            reason: 'KubeletReady',
          },
        ],
        addresses: [{ type: 'InternalIP', address: '192.0.2.10' }],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: { kubeletVersion: 'v1.20.2', architecture: 'amd64', operatingSystem: 'linux' },
        images: [{ names: ['registry.example/app:1.0'], sizeBytes: 12345678901 }],
      },
    },
    'v1/persistentvolumeclaims': {
      metadata: { name: 'claim' },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '1Gi' } },
        storageClassName: 'pb-fast',
        selector: { matchLabels: { tier: 'a' } },
      },
    },
    'v1/persistentvolumes': {
      metadata: { name: 'pb-pv' },
      spec: {
        capacity: { storage: '5Gi' },
        accessModes: ['ReadWriteOnce'],
        csi: { driver: 'pb.csi.example', volumeHandle: 'h-1', volumeAttributes: { k: 'v' }, readOnly: false },
        storageClassName: 'pb-fast',
        mountOptions: ['ro'],
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
          },
        },
      },
    },
    'v1/pods': pod('pb-pod'),
    'v1/replicationcontrollers': {
      metadata: { name: 'pb-rc' },
      spec: { replicas: 0, selector: { app: 'pb-rc' }, template: template('pb-rc') },
    },
    'v1/resourcequotas': {
      metadata: { name: 'pb-quota' },
      spec: {
        hard: { pods: '100', 'requests.cpu': '10' },
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['low'] }],
        },
      },
    },
    'v1/secrets': {
      metadata: { name: 'pb-secret' },
      type: 'Opaque',
      data: { k: 'AAEC/w==' },
      immutable: false,
    },
    'v1/serviceaccounts': {
      metadata: { name: 'pb-sa' },
      automountServiceAccountToken: false,
      imagePullSecrets: [{ name: 'pull' }],
    },
    'v1/services': {
      metadata: { name: 'pb-svc' },
      spec: {
        type: 'NodePort',
        selector: { app: 'rich' },
        ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
      },
    },
    'apps/v1/replicasets': {
      metadata: { name: 'pb-rs' },
      spec: {
        replicas: 0,
        minReadySeconds: 5,
        selector: { matchLabels: { app: 'pb-rs' } },
        template: template('pb-rs'),
      },
    },
    'apps/v1/statefulsets': {
      metadata: { name: 'pb-sts' },
      spec: {
        serviceName: 'pb-svc',
        replicas: 0,
        selector: { matchLabels: { app: 'pb-sts' } },
        template: template('pb-sts'),
        volumeClaimTemplates: [
          {
            metadata: { name: 'data', creationTimestamp: null },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    },
    'events.k8s.io/v1/events': {
      metadata: { name: 'pb-ev.2' },
      eventTime: '2024-05-06T07:08:09.123456Z',
      series: { count: 3, lastObservedTime: '2024-05-06T07:09:09.654321Z' },
      reportingController: 'default-scheduler',
      reportingInstance: 'default-scheduler-pb',
      action: 'Binding',
      reason: 'Scheduled',
      type: 'Normal',
      note: 'assigned',
      regarding: { kind: 'Pod', namespace: ns, name: 'p', apiVersion: 'v1' },
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
      deprecatedSource: {},
    },
    'policy/v1/poddisruptionbudgets': budget('v1'),
    'policy/v1beta1/poddisruptionbudgets': budget('v1beta1'),
    'rbac.authorization.k8s.io/v1/clusterroles': {
      metadata: { name: 'pb-cr' },
      rules: [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] },
        { verbs: ['get'], nonResourceURLs: ['/healthz'] },
      ],
    },
    'rbac.authorization.k8s.io/v1/clusterrolebindings': {
      metadata: { name: 'pb-crb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pb-cr' },
      subjects: [
        { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'pb-user' },
        { kind: 'ServiceAccount', name: 'pb-sa', namespace: ns },
      ],
    },
    'rbac.authorization.k8s.io/v1/roles': {
      metadata: { name: 'pb-role' },
      rules: [{ verbs: ['*'], apiGroups: ['apps'], resources: ['replicasets', 'replicasets/scale'] }],
    },
    'rbac.authorization.k8s.io/v1/rolebindings': {
      metadata: { name: 'pb-rb' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pb-role' },
      subjects: [{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'pb-group' }],
    },
    'storage.k8s.io/v1/csidrivers': {
      metadata: { name: 'pb.csi.example' },
      spec: {
        attachRequired: false,
        podInfoOnMount: true,
        storageCapacity: true,
        fsGroupPolicy: 'File',
        volumeLifecycleModes: ['Persistent', 'Ephemeral'],
        tokenRequests: [{ audience: 'pb', expirationSeconds: 3600 }],
        requiresRepublish: false,
      },
    },
    'storage.k8s.io/v1/csinodes': {
      metadata: { name: 'pb-node' },
      spec: {
        drivers: [
          { name: 'pb.csi.example', nodeID: 'n-1', topologyKeys: ['zone'], allocatable: { count: 8 } },
          // topologyKeys has no omitempty: its absence is Go's nil slice, JSON's null.
          { name: 'other.csi.example', nodeID: 'n-1' },
        ],
      },
    },
    'storage.k8s.io/v1/csistoragecapacities': {
      metadata: { name: 'pb-cap' },
      storageClassName: 'pb-fast',
      capacity: '10Gi',
      maximumVolumeSize: '1Gi',
      nodeTopology: { matchLabels: { zone: 'a' } },
    },
    'storage.k8s.io/v1/storageclasses': {
      metadata: { name: 'pb-fast' },
      provisioner: 'pb.csi.example',
      parameters: { type: 'ssd' },
      reclaimPolicy: 'Retain',
      allowVolumeExpansion: false,
      mountOptions: ['debug'],
      volumeBindingMode: 'WaitForFirstConsumer',
      allowedTopologies: [{ matchLabelExpressions: [{ key: 'zone', values: ['a', 'b'] }] }],
    },
    'admissionregistration.k8s.io/v1/mutatingwebhookconfigurations': {
      metadata: { name: 'pb-mwc' },
      webhooks: [webhook('m.pb.example', { reinvocationPolicy: 'IfNeeded', matchPolicy: 'Equivalent' })],
    },
    'admissionregistration.k8s.io/v1/validatingwebhookconfigurations': {
      metadata: { name: 'pb-vwc' },
      webhooks: [webhook('v.pb.example', { namespaceSelector: { matchLabels: { pb: 'x' } } })],
    },
    'scheduling.k8s.io/v1/priorityclasses': {
      metadata: { name: 'pb-pc' },
      value: 1000,
      globalDefault: false,
      preemptionPolicy: 'Never',
      description: 'protobuf',
    },
    'coordination.k8s.io/v1/leases': {
      metadata: { name: 'pb-lease' },
      spec: {
        holderIdentity: 'h-1',
        leaseDurationSeconds: 15,
        acquireTime: '2024-05-06T07:08:09.000001Z',
        renewTime: '2024-05-06T07:08:19.123456Z',
        leaseTransitions: 2,
      },
    },
  };
  for (const v of ['v1', 'v1beta3', 'v1beta2', 'v1beta1']) {
    fixtures[`flowcontrol.apiserver.k8s.io/${v}/flowschemas`] = flowSchema(v);
    fixtures[`flowcontrol.apiserver.k8s.io/${v}/prioritylevelconfigurations`] = priorityLevel(v);
  }
  return fixtures;
}

/** Objects of the kinds that are only created (reviews) and answered, not stored. */
export function reviewFixtures(ns: string): Record<string, Json> {
  const attrs = { namespace: ns, verb: 'get', group: 'apps', resource: 'replicasets', name: 'x' };
  return {
    'authentication.k8s.io/v1/tokenreviews': { spec: { token: 'not-a-token', audiences: ['a'] } },
    'authentication.k8s.io/v1/selfsubjectreviews': {},
    'authentication.k8s.io/v1beta1/selfsubjectreviews': {},
    'authentication.k8s.io/v1alpha1/selfsubjectreviews': {},
    'authorization.k8s.io/v1/subjectaccessreviews': {
      spec: { user: 'jane', groups: ['dev'], extra: { scopes: ['a', 'b'] }, resourceAttributes: attrs },
    },
    'authorization.k8s.io/v1/localsubjectaccessreviews': {
      metadata: { namespace: ns },
      spec: { user: 'jane', resourceAttributes: attrs },
    },
    'authorization.k8s.io/v1/selfsubjectaccessreviews': {
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } },
    },
    'authorization.k8s.io/v1/selfsubjectrulesreviews': { spec: { namespace: ns } },
  };
}
