/**
 * admissionregistration.k8s.io/v1 MutatingWebhookConfigurations and
 * ValidatingWebhookConfigurations as served (pkg/registry/admissionregistration/*: strategy.go,
 * printers.go): cluster-scoped, no status, a generation bumped when the webhooks change.
 */
import { defaultMetaFieldLabels } from '@keel/apimachinery';
import { ageColumn, beforeCreate, beforeUpdate, column, nameColumn, sameJson, since, wireCodec, type StructSpec } from '@keel/resource';
import type { CoreResourceView } from '../view.js';
import { groupTarget } from '../scheme.js';
import {
  defaultMutatingWebhookConfiguration,
  defaultValidatingWebhookConfiguration,
  mutatingWebhookConfigurationSpec,
  validatingWebhookConfigurationSpec,
  type MutatingWebhookConfiguration,
} from './schema.js';
import { CREATE_OPTIONS, updateOptions, validateWebhookConfiguration } from './validation.js';

export const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.k8s.io';

interface Names {
  readonly kind: string;
  readonly resource: string;
  readonly storageVersionHash: string;
  readonly mutating: boolean;
}

const webhooksColumn = column('Webhooks', 'Webhooks indicates the number of webhooks in this configuration.', 0, 'integer');

function webhookConfigurationView<C extends MutatingWebhookConfiguration>(
  names: Names,
  spec: StructSpec,
  defaults: (c: C) => void,
): CoreResourceView<C> {
  const { kind, resource, mutating } = names;
  const group = ADMISSION_REGISTRATION_GROUP;
  return {
    group,
    version: 'v1',
    apiVersion: `${group}/v1`,
    resource,
    kind,
    listKind: `${kind}List`,
    singular: kind.toLowerCase(),
    shortNames: [],
    categories: ['api-extensions'],
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    storageVersionHash: names.storageVersionHash,
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    invalidKind: { group, kind },
    smpSchema: { 'metadata.finalizers': { patchStrategy: 'merge' }, 'metadata.ownerReferences': 'uid', webhooks: 'name' },
    ...wireCodec<C>(groupTarget(group, kind), spec, defaults),
    prepareForCreate: (c) => {
      c.metadata.generation = 1;
    },
    // Any change to the webhooks is a new generation, as the strategy's PrepareForUpdate.
    prepareForUpdate: (c, old) => {
      const oldGeneration = old.metadata.generation ?? 0;
      c.metadata.generation = sameJson(c.webhooks ?? [], old.webhooks ?? []) ? oldGeneration : oldGeneration + 1;
    },
    validateCreate: (c) => beforeCreate(validateWebhookConfiguration(c, mutating, CREATE_OPTIONS), c.metadata, false),
    validateUpdate: (c, old) =>
      beforeUpdate(c.metadata, old.metadata, false, validateWebhookConfiguration(c, mutating, updateOptions(old.webhooks ?? []))),
    fieldLabels: ['metadata.name', 'metadata.namespace'],
    convertFieldLabel: defaultMetaFieldLabels,
    fields: (c) => ({ 'metadata.name': c.metadata.name ?? '', 'metadata.namespace': '' }),
    tableColumns: [nameColumn, webhooksColumn, ageColumn],
    tableRow: (c, now) => [c.metadata.name ?? '', (c.webhooks ?? []).length, since(c.metadata.creationTimestamp, now)],
  };
}

export const mutatingWebhookConfigurationView = webhookConfigurationView<MutatingWebhookConfiguration>(
  { kind: 'MutatingWebhookConfiguration', resource: 'mutatingwebhookconfigurations', storageVersionHash: 'Sqi0GUgDaX0=', mutating: true },
  mutatingWebhookConfigurationSpec,
  defaultMutatingWebhookConfiguration,
);

export const validatingWebhookConfigurationView = webhookConfigurationView<MutatingWebhookConfiguration>(
  { kind: 'ValidatingWebhookConfiguration', resource: 'validatingwebhookconfigurations', storageVersionHash: 'B0wHjQmsGNk=', mutating: false },
  validatingWebhookConfigurationSpec,
  defaultValidatingWebhookConfiguration,
);
