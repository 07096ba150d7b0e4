/**
 * core/v1 ConfigMap (ValidateConfigMap / ValidateConfigMapUpdate, printConfigMap): key rules
 * for data and binaryData, the 1 MiB total, and immutable ConfigMaps. Field selectors take only
 * metadata.name and metadata.namespace (no label conversion is registered for the kind).
 */
import {
  compareGoStrings,
  defaultMetaFieldLabels,
  FieldPath,
  forbiddenField,
  invalidValue,
  maxLenError,
  nameIsDNSSubdomain,
  regexError,
  tooLong,
  utf8Length,
  type FieldError,
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
  ptr,
  str,
  stringMap,
  struct,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { coreTarget } from './scheme.js';

export interface ConfigMap {
  metadata: ObjectMeta;
  immutable?: boolean;
  data?: Record<string, string>;
  /** Values in standard base64, as on the wire. */
  binaryData?: Record<string, string>;
}

const configMapSpec = struct('v1.ConfigMap', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  immutable: ptr(bool),
  data: stringMap,
  binaryData: map(bytes, 'map[string][]uint8'),
});

/** core.MaxSecretSize, which ConfigMaps share. */
export const maxConfigMapSize = 1024 * 1024;
const keyFmt = '[-._a-zA-Z0-9]+';
const keyRe = new RegExp(`^${keyFmt}$`);

/** validation.IsConfigMapKey. */
export function configMapKeyErrors(key: string): string[] {
  const errs: string[] = [];
  if (utf8Length(key) > 253) errs.push(maxLenError(253));
  if (!keyRe.test(key)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", keyFmt, 'key.name', 'KEY_NAME', 'key-name'));
  if (key === '.') errs.push("must not be '.'");
  else if (key === '..') errs.push("must not be '..'");
  else if (key.startsWith('..')) errs.push("must not start with '..'");
  return errs;
}

const sortedKeys = (m: Record<string, string> | undefined): string[] => Object.keys(m ?? {}).sort(compareGoStrings);

function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = validateCoreMeta(cm.metadata, true, nameIsDNSSubdomain);
  let size = 0;
  for (const key of sortedKeys(cm.data)) {
    const p = FieldPath.of('data').key(key);
    errs.push(...configMapKeyErrors(key).map((msg) => invalidValue(p, key, msg)));
    if (cm.binaryData && Object.hasOwn(cm.binaryData, key)) errs.push(invalidValue(p, key, 'duplicate of key present in binaryData'));
    size += utf8Length(cm.data?.[key] ?? '');
  }
  for (const key of sortedKeys(cm.binaryData)) {
    errs.push(...configMapKeyErrors(key).map((msg) => invalidValue(FieldPath.of('binaryData').key(key), key, msg)));
    size += Buffer.from(cm.binaryData?.[key] ?? '', 'base64').length;
  }
  if (size > maxConfigMapSize) errs.push(tooLong('', maxConfigMapSize));
  return errs;
}

function validateConfigMapUpdate(cm: ConfigMap, old: ConfigMap): FieldError[] {
  const errs = validateCoreMetaUpdate(cm.metadata, old.metadata);
  if (old.immutable === true) {
    const msg = 'field is immutable when `immutable` is set';
    if (cm.immutable !== true) errs.push(forbiddenField('immutable', msg));
    if (!sameJson(cm.data ?? {}, old.data ?? {})) errs.push(forbiddenField('data', msg));
    if (!sameJson(cm.binaryData ?? {}, old.binaryData ?? {})) errs.push(forbiddenField('binaryData', msg));
  }
  return [...errs, ...validateConfigMap(cm)];
}

export const configMapView: CoreResourceView<ConfigMap> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'configmaps',
  kind: 'ConfigMap',
  listKind: 'ConfigMapList',
  singular: 'configmap',
  shortNames: ['cm'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'qFsyl6wFWjQ=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'ConfigMap' },
  smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid' },
  ...wireCodec<ConfigMap>(coreTarget('ConfigMap'), configMapSpec),
  prepareForCreate: () => undefined,
  prepareForUpdate: () => undefined,
  validateCreate: (cm) => beforeCreate(validateConfigMap(cm), cm.metadata, true),
  validateUpdate: (cm, old) => beforeUpdate(cm.metadata, old.metadata, true, validateConfigMapUpdate(cm, old)),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (cm) => ({ 'metadata.name': cm.metadata.name ?? '', 'metadata.namespace': cm.metadata.namespace ?? '' }),
  tableColumns: [
    nameColumn,
    column(
      'Data',
      "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.",
    ),
    ageColumn,
  ],
  tableRow: (cm, now) => [
    cm.metadata.name ?? '',
    Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length,
    since(cm.metadata.creationTimestamp, now),
  ],
};
