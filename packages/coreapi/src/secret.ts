/**
 * core/v1 Secret (ValidateSecret / ValidateSecretUpdate, printSecret): data keys follow the
 * ConfigMap key rule, the values total at most 1 MiB, each well-known type needs its keys, the
 * type never changes and immutable Secrets keep their data. `stringData` is write-only: the v1
 * conversion merges it into `data` (overwriting) before anything else sees the object.
 */
import {
  compareGoStrings,
  FieldPath,
  forbiddenField,
  goJsonSyntaxError,
  invalidValue,
  nameIsDNSSubdomain,
  required,
  tooLong,
  type FieldError,
  type FieldLabelConverter,
} from '@keel/apimachinery';
import {
  beforeCreate,
  beforeUpdate,
  validateCoreMeta,
  validateCoreMetaUpdate,
  objectMetaSpec,
  type ObjectMeta,
  sameJson,
  ageColumn,
  column,
  nameColumn,
  since,
  wireCodec,
  bool,
  bytes,
  map,
  named,
  ptr,
  str,
  stringMap,
  struct,
} from '@keel/resource';
import { configMapKeyErrors, maxConfigMapSize } from './configmap.js';
import type { CoreResourceView } from './view.js';
import { coreTarget } from './scheme.js';

export interface Secret {
  metadata: ObjectMeta;
  immutable?: boolean;
  /** Values in standard base64, as on the wire. */
  data?: Record<string, string>;
  /** Only on input: merged into `data` by decoding, never stored. */
  stringData?: Record<string, string>;
  type?: string;
}

/** The Secret types the server knows, and the keys it reads from them. */
export const secretTypes = {
  opaque: 'Opaque',
  serviceAccountToken: 'kubernetes.io/service-account-token',
  dockercfg: 'kubernetes.io/dockercfg',
  dockerConfigJson: 'kubernetes.io/dockerconfigjson',
  basicAuth: 'kubernetes.io/basic-auth',
  sshAuth: 'kubernetes.io/ssh-auth',
  tls: 'kubernetes.io/tls',
  bootstrapToken: 'bootstrap.kubernetes.io/token',
} as const;

/** The annotation a service-account-token Secret names its account with. */
export const serviceAccountNameAnnotation = 'kubernetes.io/service-account.name';
export const serviceAccountUIDAnnotation = 'kubernetes.io/service-account.uid';

const secretSpec = struct('v1.Secret', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  immutable: ptr(bool),
  data: map(bytes, 'map[string][]uint8'),
  stringData: stringMap,
  type: named('v1.SecretType'),
});

/** Convert_v1_Secret_To_core_Secret and SetDefaults_Secret. */
function mergeStringData(secret: Secret): void {
  if (secret.stringData) {
    const data = { ...secret.data };
    for (const [k, v] of Object.entries(secret.stringData))
      data[k] = Buffer.from(v, 'utf8').toString('base64');
    secret.data = data;
  }
  delete secret.stringData;
  if (!secret.type) secret.type = secretTypes.opaque;
}

const sortedKeys = (m: Record<string, string> | undefined): string[] =>
  Object.keys(m ?? {}).sort(compareGoStrings);
const has = (s: Secret, key: string): boolean => s.data !== undefined && Object.hasOwn(s.data, key);
const value = (s: Secret, key: string): Buffer => Buffer.from(s.data?.[key] ?? '', 'base64');

/** json.Unmarshal into map[string]interface{}: undefined when it would succeed. */
function jsonObjectError(raw: Buffer): string | undefined {
  const syntax = goJsonSyntaxError(raw);
  if (syntax !== undefined) return syntax;
  const parsed: unknown = JSON.parse(raw.toString('utf8'));
  if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) return undefined;
  const kind = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

function validateJsonKey(s: Secret, key: string): FieldError[] {
  const p = FieldPath.of('data').key(key);
  if (!has(s, key)) return [required(p)];
  const err = jsonObjectError(value(s, key));
  return err === undefined ? [] : [invalidValue(p, '<secret contents redacted>', err)];
}

/** The keys each well-known type must carry. */
function validateType(s: Secret): FieldError[] {
  const data = (key: string) => FieldPath.of('data').key(key);
  switch (s.type) {
    case secretTypes.serviceAccountToken:
      // Only the account's name: the uid and token may be filled in later by a controller.
      return s.metadata.annotations?.[serviceAccountNameAnnotation]
        ? []
        : [required(FieldPath.of('metadata', 'annotations').key(serviceAccountNameAnnotation))];
    case secretTypes.dockercfg:
      return validateJsonKey(s, '.dockercfg');
    case secretTypes.dockerConfigJson:
      return validateJsonKey(s, '.dockerconfigjson');
    case secretTypes.basicAuth:
      // Either may be empty, but one of them must be there.
      return has(s, 'username') || has(s, 'password')
        ? []
        : [required(data('username')), required(data('password'))];
    case secretTypes.sshAuth:
      return value(s, 'ssh-privatekey').length === 0 ? [required(data('ssh-privatekey'))] : [];
    case secretTypes.tls:
      return [
        ...(has(s, 'tls.crt') ? [] : [required(data('tls.crt'))]),
        ...(has(s, 'tls.key') ? [] : [required(data('tls.key'))]),
      ];
    default:
      return [];
  }
}

function validateSecret(s: Secret): FieldError[] {
  const errs = validateCoreMeta(s.metadata, true, nameIsDNSSubdomain);
  let size = 0;
  for (const key of sortedKeys(s.data)) {
    errs.push(...configMapKeyErrors(key).map((msg) => invalidValue(FieldPath.of('data').key(key), key, msg)));
    size += value(s, key).length;
  }
  if (size > maxConfigMapSize) errs.push(tooLong('data', maxConfigMapSize));
  return [...errs, ...validateType(s)];
}

function validateSecretUpdate(s: Secret, old: Secret): FieldError[] {
  const errs = validateCoreMetaUpdate(s.metadata, old.metadata);
  if ((s.type ?? '') !== (old.type ?? ''))
    errs.push(invalidValue('type', s.type ?? '', 'field is immutable'));
  if (old.immutable === true) {
    const msg = 'field is immutable when `immutable` is set';
    if (s.immutable !== true) errs.push(forbiddenField('immutable', msg));
    if (!sameJson(s.data ?? {}, old.data ?? {})) errs.push(forbiddenField('data', msg));
  }
  return [...errs, ...validateSecret(s)];
}

/** The conversion func registered for v1 Secret: `type` besides name and namespace. */
export const convertSecretFieldLabel: FieldLabelConverter = (field, value) => {
  if (field === 'type' || field === 'metadata.name' || field === 'metadata.namespace')
    return { field, value };
  throw new Error(`field label not supported: ${field}`);
};

const codec = wireCodec<Secret>(coreTarget('Secret'), secretSpec, mergeStringData);

export const secretView: CoreResourceView<Secret> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'secrets',
  kind: 'Secret',
  listKind: 'SecretList',
  singular: 'secret',
  shortNames: [],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'S6u1pOWzb84=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'Secret' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...codec,
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (s) => beforeCreate(validateSecret(s), s.metadata, true),
  validateUpdate: (s, old) => beforeUpdate(s.metadata, old.metadata, true, validateSecretUpdate(s, old)),
  fieldLabels: ['metadata.name', 'metadata.namespace', 'type'],
  convertFieldLabel: convertSecretFieldLabel,
  fields: (s) => ({
    'metadata.name': s.metadata.name ?? '',
    'metadata.namespace': s.metadata.namespace ?? '',
    type: s.type ?? '',
  }),
  tableColumns: [
    nameColumn,
    column(
      'Type',
      'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types',
    ),
    column(
      'Data',
      "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4",
    ),
    ageColumn,
  ],
  tableRow: (s, now) => [
    s.metadata.name ?? '',
    s.type ?? '',
    Object.keys(s.data ?? {}).length,
    since(s.metadata.creationTimestamp, now),
  ],
};
