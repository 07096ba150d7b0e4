/**
 * The apimachinery meta/v1 object and list metadata schemas every kind references, with the
 * descriptions of the upstream types (shortened where upstream runs to paragraphs).
 */
import {
  arrayOf,
  bool,
  int64,
  object,
  ref,
  str,
  stringMap,
  type Definitions,
  type Schema,
} from './schema.js';

export const meta = 'io.k8s.apimachinery.pkg.apis.meta.v1';
export const rawExtension = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

export const apiVersionField = str(
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
);
export const kindField = str(
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
);
const listMetaField = ref(`${meta}.ListMeta`, 'Standard list metadata.', { default: {} });
const timeRef = (description: string): Schema => ref(`${meta}.Time`, description);

export const typeMeta = { apiVersion: apiVersionField, kind: kindField };
export { listMetaField };

const objectMeta = object(
  'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  {
    annotations: stringMap(
      'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata.',
    ),
    creationTimestamp: timeRef(
      'CreationTimestamp is a timestamp representing the server time when this object was created. Populated by the system. Read-only.',
    ),
    deletionGracePeriodSeconds: int64(
      'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set.',
    ),
    deletionTimestamp: timeRef(
      'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. Populated by the system when a graceful deletion is requested. Read-only.',
    ),
    finalizers: arrayOf(
      { type: 'string', default: '' },
      'Must be empty before the object is deleted from the registry.',
      {
        'x-kubernetes-list-type': 'set',
        'x-kubernetes-patch-strategy': 'merge',
      },
    ),
    generateName: str(
      'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.',
    ),
    generation: int64(
      'A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.',
    ),
    labels: stringMap(
      'Map of string keys and values that can be used to organize and categorize (scope and select) objects.',
    ),
    managedFields: arrayOf(
      ref(`${meta}.ManagedFieldsEntry`, undefined, { default: {} }),
      'ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow.',
      {
        'x-kubernetes-list-type': 'atomic',
      },
    ),
    name: str('Name must be unique within a namespace. Cannot be updated.'),
    namespace: str('Namespace defines the space within which each name must be unique. Cannot be updated.'),
    ownerReferences: arrayOf(
      ref(`${meta}.OwnerReference`, undefined, { default: {} }),
      'List of objects depended by this object.',
      {
        'x-kubernetes-list-map-keys': ['uid'],
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-patch-merge-key': 'uid',
        'x-kubernetes-patch-strategy': 'merge',
      },
    ),
    resourceVersion: str(
      'An opaque value that represents the internal version of this object, used for optimistic concurrency, change detection, and the watch operation. Populated by the system. Read-only.',
    ),
    selfLink: str(
      'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
    ),
    uid: str(
      'UID is the unique in time and space value for this object. Populated by the system. Read-only.',
    ),
  },
);

/** The object and list metadata definitions every kind references. */
export function metaDefinitions(): Definitions {
  return {
    [`${meta}.ObjectMeta`]: objectMeta,
    [`${meta}.ListMeta`]: object(
      'ListMeta describes metadata that synthetic resources must have, including lists and various status objects.',
      {
        continue: str(
          'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available.',
        ),
        remainingItemCount: int64(
          'remainingItemCount is the number of subsequent items in the list which are not included in this list response.',
        ),
        resourceVersion: str(
          "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed.",
        ),
        selfLink: str(
          'Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.',
        ),
      },
    ),
    [`${meta}.Time`]: {
      description: 'Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.',
      type: 'string',
      format: 'date-time',
    },
    [`${meta}.MicroTime`]: {
      description: 'MicroTime is version of Time with microsecond level precision.',
      type: 'string',
      format: 'date-time',
    },
    [`${meta}.FieldsV1`]: {
      description: 'FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.',
      type: 'object',
    },
    [`${meta}.ManagedFieldsEntry`]: object(
      'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      {
        apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
        fieldsType: str(
          'FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"',
        ),
        fieldsV1: ref(
          `${meta}.FieldsV1`,
          'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.',
        ),
        manager: str('Manager is an identifier of the workflow managing these fields.'),
        operation: str(
          "Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'.",
        ),
        subresource: str(
          'Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.',
        ),
        time: timeRef('Time is the timestamp of when the ManagedFields entry was added.'),
      },
    ),
    [`${meta}.OwnerReference`]: object(
      'OwnerReference contains enough information to let you identify an owning object.',
      {
        apiVersion: str('API version of the referent.', { default: '' }),
        blockOwnerDeletion: bool(
          'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed.',
        ),
        controller: bool('If true, this reference points to the managing controller.'),
        kind: str('Kind of the referent.', { default: '' }),
        name: str('Name of the referent.', { default: '' }),
        uid: str('UID of the referent.', { default: '' }),
      },
      { required: ['apiVersion', 'kind', 'name', 'uid'], 'x-kubernetes-map-type': 'atomic' },
    ),
  };
}
