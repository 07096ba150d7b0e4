import { badRequest } from '@keel/apimachinery';

/**
 * Request bodies in the Kubernetes protobuf encoding (`application/vnd.kubernetes.protobuf`):
 * the `k8s\0` magic, a runtime.Unknown envelope (typeMeta, raw), and the object's generated
 * message in `raw`. kubectl's generators send it (`kubectl create namespace`, `kubectl create
 * configmap`), as do `kubectl auth can-i` and `whoami` for the reviews, so those kinds are decoded here into the JSON wire form, which then goes
 * through the one decode path every JSON body takes. Unknown fields are skipped, as Go's
 * generated Unmarshal does. No protobuf library fits: they need .proto files or generated code
 * for the Kubernetes types, and this needs a field table for a handful of messages.
 */

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type FieldType =
  | 'string'
  | 'bytes'
  | 'bool'
  | 'int'
  | 'time'
  | 'strings'
  | 'stringMap'
  | 'bytesMap'
  /** map<string, ExtraValue>: each value a message of repeated strings (field 1). */
  | 'stringsMap'
  /** intstr.IntOrString: type (0 int, 1 string), intVal, strVal; the JSON number or string. */
  | 'intOrString'
  | { readonly message: Schema; readonly repeated?: boolean };

/** Field number → JSON name and type. */
type Schema = Readonly<Record<number, readonly [name: string, type: FieldType]>>;

const ownerReference: Schema = {
  1: ['kind', 'string'],
  3: ['name', 'string'],
  4: ['uid', 'string'],
  5: ['apiVersion', 'string'],
  6: ['controller', 'bool'],
  7: ['blockOwnerDeletion', 'bool'],
};

const objectMeta: Schema = {
  1: ['name', 'string'],
  2: ['generateName', 'string'],
  3: ['namespace', 'string'],
  5: ['uid', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['generation', 'int'],
  8: ['creationTimestamp', 'time'],
  9: ['deletionTimestamp', 'time'],
  10: ['deletionGracePeriodSeconds', 'int'],
  11: ['labels', 'stringMap'],
  12: ['annotations', 'stringMap'],
  13: ['ownerReferences', { message: ownerReference, repeated: true }],
  14: ['finalizers', 'strings'],
};

const selectorAttributes: Schema = {
  1: ['rawSelector', 'string'],
  2: [
    'requirements',
    {
      message: { 1: ['key', 'string'], 2: ['operator', 'string'], 3: ['values', 'strings'] },
      repeated: true,
    },
  ],
};
const resourceAttributes: Schema = {
  1: ['namespace', 'string'],
  2: ['verb', 'string'],
  3: ['group', 'string'],
  4: ['version', 'string'],
  5: ['resource', 'string'],
  6: ['subresource', 'string'],
  7: ['name', 'string'],
  8: ['fieldSelector', { message: selectorAttributes }],
  9: ['labelSelector', { message: selectorAttributes }],
};
const accessAttributes: Schema = {
  1: ['resourceAttributes', { message: resourceAttributes }],
  2: ['nonResourceAttributes', { message: { 1: ['path', 'string'], 2: ['verb', 'string'] } }],
};
const subjectAccessReview: Schema = {
  1: ['metadata', { message: objectMeta }],
  2: [
    'spec',
    {
      message: {
        ...accessAttributes,
        3: ['user', 'string'],
        4: ['groups', 'strings'],
        5: ['extra', 'stringsMap'],
        6: ['uid', 'string'],
      },
    },
  ],
};
// The review kinds kubectl and client-go send as protobuf (auth can-i, whoami); status is never read.
const selfSubjectReview: Schema = { 1: ['metadata', { message: objectMeta }] };
const objectReference: Schema = {
  1: ['kind', 'string'],
  2: ['namespace', 'string'],
  3: ['name', 'string'],
  4: ['uid', 'string'],
  5: ['apiVersion', 'string'],
  6: ['resourceVersion', 'string'],
  7: ['fieldPath', 'string'],
};

const policyRule: Schema = {
  1: ['verbs', 'strings'],
  2: ['apiGroups', 'strings'],
  3: ['resources', 'strings'],
  4: ['resourceNames', 'strings'],
  5: ['nonResourceURLs', 'strings'],
};

const labelSelector: Schema = {
  1: ['matchLabels', 'stringMap'],
  2: [
    'matchExpressions',
    {
      message: { 1: ['key', 'string'], 2: ['operator', 'string'], 3: ['values', 'strings'] },
      repeated: true,
    },
  ],
};

const rbacBinding: Schema = {
  1: ['metadata', { message: objectMeta }],
  2: [
    'subjects',
    {
      message: {
        1: ['kind', 'string'],
        2: ['apiGroup', 'string'],
        3: ['name', 'string'],
        4: ['namespace', 'string'],
      },
      repeated: true,
    },
  ],
  3: ['roleRef', { message: { 1: ['apiGroup', 'string'], 2: ['kind', 'string'], 3: ['name', 'string'] } }],
};

const rbacRole: Schema = {
  1: ['metadata', { message: objectMeta }],
  2: ['rules', { message: policyRule, repeated: true }],
};

// kubectl create service clusterip / nodeport / loadbalancer / externalname.
const serviceSpec: Schema = {
  1: [
    'ports',
    {
      message: {
        1: ['name', 'string'],
        2: ['protocol', 'string'],
        3: ['port', 'int'],
        4: ['targetPort', 'intOrString'],
        5: ['nodePort', 'int'],
        6: ['appProtocol', 'string'],
      },
      repeated: true,
    },
  ],
  2: ['selector', 'stringMap'],
  3: ['clusterIP', 'string'],
  4: ['type', 'string'],
  5: ['externalIPs', 'strings'],
  7: ['sessionAffinity', 'string'],
  8: ['loadBalancerIP', 'string'],
  9: ['loadBalancerSourceRanges', 'strings'],
  10: ['externalName', 'string'],
  11: ['externalTrafficPolicy', 'string'],
  12: ['healthCheckNodePort', 'int'],
  13: ['publishNotReadyAddresses', 'bool'],
  17: ['ipFamilyPolicy', 'string'],
  18: ['clusterIPs', 'strings'],
  19: ['ipFamilies', 'strings'],
  20: ['allocateLoadBalancerNodePorts', 'bool'],
  21: ['loadBalancerClass', 'string'],
  22: ['internalTrafficPolicy', 'string'],
};

/** The kinds decoded, by `<apiVersion>/<kind>` of the envelope. */
const kinds: Readonly<Record<string, Schema>> = {
  'authorization.k8s.io/v1/SubjectAccessReview': subjectAccessReview,
  'authorization.k8s.io/v1/LocalSubjectAccessReview': subjectAccessReview,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': {
    1: ['metadata', { message: objectMeta }],
    2: ['spec', { message: accessAttributes }],
  },
  'authorization.k8s.io/v1/SelfSubjectRulesReview': {
    1: ['metadata', { message: objectMeta }],
    2: ['spec', { message: { 1: ['namespace', 'string'] } }],
  },
  'authentication.k8s.io/v1/TokenReview': {
    1: ['metadata', { message: objectMeta }],
    2: ['spec', { message: { 1: ['token', 'string'], 2: ['audiences', 'strings'] } }],
  },
  'authentication.k8s.io/v1/SelfSubjectReview': selfSubjectReview,
  'authentication.k8s.io/v1beta1/SelfSubjectReview': selfSubjectReview,
  'authentication.k8s.io/v1alpha1/SelfSubjectReview': selfSubjectReview,
  'v1/Namespace': {
    1: ['metadata', { message: objectMeta }],
    2: ['spec', { message: { 1: ['finalizers', 'strings'] } }],
  },
  'v1/ConfigMap': {
    1: ['metadata', { message: objectMeta }],
    2: ['data', 'stringMap'],
    3: ['binaryData', 'bytesMap'],
    4: ['immutable', 'bool'],
  },
  'v1/Service': { 1: ['metadata', { message: objectMeta }], 2: ['spec', { message: serviceSpec }] },
  // kubectl create secret / serviceaccount / token.
  'v1/Secret': {
    1: ['metadata', { message: objectMeta }],
    2: ['data', 'bytesMap'],
    3: ['type', 'string'],
    4: ['stringData', 'stringMap'],
    5: ['immutable', 'bool'],
  },
  'v1/ServiceAccount': {
    1: ['metadata', { message: objectMeta }],
    2: ['secrets', { message: objectReference, repeated: true }],
    3: ['imagePullSecrets', { message: { 1: ['name', 'string'] }, repeated: true }],
    4: ['automountServiceAccountToken', 'bool'],
  },
  'authentication.k8s.io/v1/TokenRequest': {
    1: ['metadata', { message: objectMeta }],
    2: [
      'spec',
      {
        message: {
          1: ['audiences', 'strings'],
          3: [
            'boundObjectRef',
            {
              message: {
                1: ['kind', 'string'],
                2: ['apiVersion', 'string'],
                3: ['name', 'string'],
                4: ['uid', 'string'],
              },
            },
          ],
          4: ['expirationSeconds', 'int'],
        },
      },
    ],
  },
  // kubectl create role / clusterrole / rolebinding / clusterrolebinding.
  'rbac.authorization.k8s.io/v1/Role': rbacRole,
  'rbac.authorization.k8s.io/v1/ClusterRole': {
    ...rbacRole,
    3: [
      'aggregationRule',
      { message: { 1: ['clusterRoleSelectors', { message: labelSelector, repeated: true }] } },
    ],
  },
  'rbac.authorization.k8s.io/v1/RoleBinding': rbacBinding,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': rbacBinding,
};

const decodedKinds = new Set(Object.keys(kinds).map((k) => k.slice(k.lastIndexOf('/') + 1)));

/** Whether protobuf bodies for this kind are decoded. */
export function decodesProtobuf(kind: string): boolean {
  return decodedKinds.has(kind);
}

class Reader {
  pos = 0;
  constructor(private readonly buf: Buffer) {}

  get done(): boolean {
    return this.pos >= this.buf.length;
  }

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.buf.length) throw new Error('unexpected EOF');
      const b = this.buf[this.pos++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asIntN(64, result);
    }
    throw new Error('proto: integer overflow');
  }

  bytes(): Buffer {
    const n = Number(this.varint());
    if (n < 0 || this.pos + n > this.buf.length) throw new Error('unexpected EOF');
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`proto: illegal wireType ${wireType}`);
    if (this.pos > this.buf.length) throw new Error('unexpected EOF');
  }

  /** Calls `field` for each field of the message, with a reader positioned at its value. */
  fields(field: (num: number, wireType: number) => void): void {
    while (!this.done) {
      const key = this.varint();
      // Go's generated Unmarshal: field 0 and keys past 32 bits are illegal.
      if (key <= 0n || key >= 1n << 32n || key >> 3n === 0n)
        throw new Error(`proto: illegal tag ${key >> 3n}`);
      field(Number(key >> 3n), Number(key & 7n));
    }
  }
}

/** metav1.Time: seconds and nanos; the zero time is absent, as JSON's null. */
function decodeTime(raw: Buffer): string | undefined {
  let seconds = 0n;
  const r = new Reader(raw);
  r.fields((num, wire) => {
    if (num === 1 && wire === 0) seconds = r.varint();
    else r.skip(wire);
  });
  if (seconds === 0n) return undefined;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function mapEntry(raw: Buffer, asBytes: boolean): [string, string] {
  let key = '';
  let value = '';
  const r = new Reader(raw);
  r.fields((num, wire) => {
    if (wire !== 2) return r.skip(wire);
    const b = r.bytes();
    if (num === 1) key = b.toString('utf8');
    else if (num === 2) value = asBytes ? b.toString('base64') : b.toString('utf8');
  });
  return [key, value];
}

function extraEntry(raw: Buffer): [string, string[]] {
  let key = '';
  let items: string[] = [];
  const r = new Reader(raw);
  r.fields((num, wire) => {
    if (wire !== 2) return r.skip(wire);
    const b = r.bytes();
    if (num === 1) key = b.toString('utf8');
    else if (num === 2)
      items = (decodeMessage(b, { 1: ['items', 'strings'] })['items'] as string[] | undefined) ?? [];
  });
  return [key, items];
}

function decodeMessage(raw: Buffer, schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const r = new Reader(raw);
  r.fields((num, wire) => {
    const spec = Object.hasOwn(schema, num) ? schema[num] : undefined;
    if (!spec) return r.skip(wire);
    const [name, type] = spec;
    if (type === 'bool' || type === 'int') {
      if (wire !== 0) return r.skip(wire);
      const v = r.varint();
      out[name] = type === 'bool' ? v !== 0n : Number(v);
      return;
    }
    if (wire !== 2) return r.skip(wire);
    const b = r.bytes();
    if (type === 'intOrString') {
      const v = decodeMessage(b, { 1: ['type', 'int'], 2: ['intVal', 'int'], 3: ['strVal', 'string'] });
      out[name] = v['type'] === 1 ? (v['strVal'] ?? '') : (v['intVal'] ?? 0);
    } else if (type === 'string') out[name] = b.toString('utf8');
    else if (type === 'bytes') out[name] = b.toString('base64');
    else if (type === 'time') {
      const t = decodeTime(b);
      if (t !== undefined) out[name] = t;
    } else if (type === 'strings') ((out[name] ??= []) as string[]).push(b.toString('utf8'));
    else if (type === 'stringsMap') {
      const [k, items] = extraEntry(b);
      ((out[name] ??= {}) as Record<string, string[]>)[k] = items;
    } else if (type === 'stringMap' || type === 'bytesMap') {
      const [k, v] = mapEntry(b, type === 'bytesMap');
      ((out[name] ??= {}) as Record<string, string>)[k] = v;
    } else if (type.repeated) ((out[name] ??= []) as unknown[]).push(decodeMessage(b, type.message));
    else out[name] = decodeMessage(b, type.message);
  });
  return out;
}

/**
 * The JSON wire form of a protobuf body, with the envelope's apiVersion and kind. A body that is
 * not the envelope, or not decodable, is the real server's 400 for an unrecognized object.
 */
export function decodeProtobufObject(body: Buffer, kind: string): Record<string, unknown> {
  const fail = (why: string) =>
    badRequest(`the object provided is unrecognized (must be of type ${kind}): ${why}`);
  if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC))
    throw fail('provided object is not a protobuf message');
  try {
    let typeMeta: Record<string, unknown> = {};
    let raw: Buffer = Buffer.alloc(0);
    const r = new Reader(body.subarray(MAGIC.length));
    r.fields((num, wire) => {
      if (wire !== 2) return r.skip(wire);
      if (num === 1)
        typeMeta = decodeMessage(r.bytes(), { 1: ['apiVersion', 'string'], 2: ['kind', 'string'] });
      else if (num === 2) raw = r.bytes();
      else r.skip(wire);
    });
    const apiVersion = typeof typeMeta['apiVersion'] === 'string' ? typeMeta['apiVersion'] : '';
    const objKind = typeof typeMeta['kind'] === 'string' ? typeMeta['kind'] : '';
    const schema = kinds[`${apiVersion}/${objKind}`];
    if (!schema) throw new Error(`no kind "${objKind}" is registered for version "${apiVersion}"`);
    return { apiVersion, kind: objKind, ...decodeMessage(raw, schema) };
  } catch (err) {
    throw fail((err as Error).message);
  }
}
