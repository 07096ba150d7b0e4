/**
 * core/v1 ServiceAccount (ValidateServiceAccount, printServiceAccount): only the object meta is
 * validated; the table counts the listed secrets. Field selectors take only metadata.name and
 * metadata.namespace (no label conversion is registered for the kind).
 */
import { defaultMetaFieldLabels, nameIsDNSSubdomain, type FieldError } from '@keel/apimachinery';
import {
  beforeCreate,
  beforeUpdate,
  validateCoreMeta,
  validateCoreMetaUpdate,
  objectMetaSpec,
  objectReferenceSpec,
  type ObjectMeta,
  type ObjectReference,
  ageColumn,
  column,
  nameColumn,
  since,
  wireCodec,
  bool,
  list,
  ptr,
  str,
  struct,
} from '@keel/resource';
import type { CoreResourceView } from './view.js';
import { coreTarget } from './scheme.js';

export interface ServiceAccount {
  metadata: ObjectMeta;
  secrets?: ObjectReference[];
  imagePullSecrets?: { name?: string }[];
  automountServiceAccountToken?: boolean;
}

const serviceAccountSpec = struct('v1.ServiceAccount', {
  kind: str,
  apiVersion: str,
  metadata: objectMetaSpec,
  secrets: list(objectReferenceSpec, '[]v1.ObjectReference'),
  imagePullSecrets: list(struct('v1.LocalObjectReference', { name: str }), '[]v1.LocalObjectReference'),
  automountServiceAccountToken: ptr(bool),
});

/** The strategy keeps only the name of each listed secret (the rest is never used). */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (sa.secrets) sa.secrets = sa.secrets.map((s) => (s.name !== undefined ? { name: s.name } : {}));
}

const validate = (sa: ServiceAccount): FieldError[] =>
  validateCoreMeta(sa.metadata, true, nameIsDNSSubdomain);

export const serviceAccountView: CoreResourceView<ServiceAccount> = {
  group: '',
  version: 'v1',
  apiVersion: 'v1',
  resource: 'serviceaccounts',
  kind: 'ServiceAccount',
  listKind: 'ServiceAccountList',
  singular: 'serviceaccount',
  shortNames: ['sa'],
  categories: [],
  namespaced: true,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  storageVersionHash: 'pbx9ZvyFpBE=',
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  invalidKind: { group: '', kind: 'ServiceAccount' },
  smpSchema: {
    'metadata.finalizers': { patchStrategy: 'merge' },
    'metadata.ownerReferences': 'uid',
    secrets: 'name',
  },
  ...wireCodec<ServiceAccount>(coreTarget('ServiceAccount'), serviceAccountSpec),
  prepareForCreate: (sa) => cleanSecretReferences(sa),
  prepareForUpdate: (sa) => cleanSecretReferences(sa),
  validateCreate: (sa) => beforeCreate(validate(sa), sa.metadata, true),
  validateUpdate: (sa, old) =>
    beforeUpdate(sa.metadata, old.metadata, true, [
      ...validateCoreMetaUpdate(sa.metadata, old.metadata),
      ...validate(sa),
    ]),
  fieldLabels: ['metadata.name', 'metadata.namespace'],
  convertFieldLabel: defaultMetaFieldLabels,
  fields: (sa) => ({
    'metadata.name': sa.metadata.name ?? '',
    'metadata.namespace': sa.metadata.namespace ?? '',
  }),
  tableColumns: [
    nameColumn,
    column(
      'Secrets',
      'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret',
    ),
    ageColumn,
  ],
  tableRow: (sa, now) => [
    sa.metadata.name ?? '',
    (sa.secrets ?? []).length,
    since(sa.metadata.creationTimestamp, now),
  ],
};
