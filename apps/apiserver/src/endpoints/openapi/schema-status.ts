/**
 * The meta/v1 schemas of operation requests and responses (Status, DeleteOptions, Patch,
 * WatchEvent, APIResourceList). DeleteOptions and WatchEvent name every served group version
 * in x-kubernetes-group-version-kind, as upstream does.
 */
import { apiVersionField, kindField, listMetaField, meta, rawExtension } from './schema-meta.js';
import {
  arrayOf,
  bool,
  gvkExtension,
  int32,
  int64,
  object,
  ref,
  str,
  type Definitions,
  type Gvk,
  type Schema,
} from './schema.js';

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

function withGvks(schema: Schema, kind: string, gvs: readonly GroupVersion[]): Schema {
  return {
    ...schema,
    ...gvkExtension(...gvs.map((gv): Gvk => ({ group: gv.group, kind, version: gv.version }))),
  };
}

export function operationDefinitions(served: readonly GroupVersion[]): Definitions {
  const core = [{ group: '', version: 'v1' }];
  const all = [...core, ...served.filter((gv) => gv.group !== '')];
  return {
    [`${meta}.Status`]: withGvks(
      object("Status is a return value for calls that don't return other objects.", {
        apiVersion: apiVersionField,
        code: int32('Suggested HTTP return code for this status, 0 if not set.'),
        details: ref(`${meta}.StatusDetails`, 'Extended data associated with the reason.', {
          'x-kubernetes-list-type': 'atomic',
        }),
        kind: kindField,
        message: str('A human-readable description of the status of this operation.'),
        metadata: listMetaField,
        reason: str('A machine-readable description of why this operation is in the "Failure" status.'),
        status: str('Status of the operation. One of: "Success" or "Failure".'),
      }),
      'Status',
      core,
    ),
    [`${meta}.StatusDetails`]: object(
      'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
      {
        causes: arrayOf(
          ref(`${meta}.StatusCause`, undefined, { default: {} }),
          'The Causes array includes more details associated with the StatusReason failure.',
          { 'x-kubernetes-list-type': 'atomic' },
        ),
        group: str('The group attribute of the resource associated with the status StatusReason.'),
        kind: str('The kind attribute of the resource associated with the status StatusReason.'),
        name: str(
          'The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).',
        ),
        retryAfterSeconds: int32('If specified, the time in seconds before the operation should be retried.'),
        uid: str('UID of the resource. (when there is a single resource which can be described).'),
      },
    ),
    [`${meta}.StatusCause`]: object(
      'StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.',
      {
        field: str(
          'The field of the resource that has caused this error, as named by its JSON serialization.',
        ),
        message: str('A human-readable description of the cause of the error.'),
        reason: str(
          'A machine-readable description of the cause of the error. If this value is empty there is no information available.',
        ),
      },
    ),
    [`${meta}.Preconditions`]: object(
      'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
      {
        resourceVersion: str('Specifies the target ResourceVersion'),
        uid: str('Specifies the target UID.'),
      },
    ),
    [`${meta}.DeleteOptions`]: withGvks(
      object('DeleteOptions may be provided when deleting an API object.', {
        apiVersion: apiVersionField,
        dryRun: arrayOf(
          { type: 'string', default: '' },
          'When present, indicates that modifications should not be persisted. The only valid value is "All".',
          { 'x-kubernetes-list-type': 'atomic' },
        ),
        gracePeriodSeconds: int64('The duration in seconds before the object should be deleted.'),
        ignoreStoreReadErrorWithClusterBreakingPotential: bool(
          'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
        ),
        kind: kindField,
        orphanDependents: bool(
          'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.',
        ),
        preconditions: ref(
          `${meta}.Preconditions`,
          'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.',
        ),
        propagationPolicy: str(
          "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
        ),
      }),
      'DeleteOptions',
      all,
    ),
    [`${meta}.WatchEvent`]: withGvks(
      object(
        'Event represents a single event to a watched resource.',
        {
          object: ref(
            rawExtension,
            'Object is: * If Type is Added or Modified: the new state of the object. * If Type is Deleted: the state of the object immediately before deletion. * If Type is Error: *Status is recommended; other types may make sense depending on context.',
          ),
          type: str('', { default: '' }),
        },
        { required: ['type', 'object'] },
      ),
      'WatchEvent',
      all,
    ),
    [`${meta}.APIResourceList`]: withGvks(
      object(
        'APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.',
        {
          apiVersion: apiVersionField,
          groupVersion: str('groupVersion is the group and version this APIResourceList is for.', {
            default: '',
          }),
          kind: kindField,
          resources: arrayOf(
            ref(`${meta}.APIResource`, undefined, { default: {} }),
            'resources contains the name of the resources and if they are namespaced.',
            { 'x-kubernetes-list-type': 'atomic' },
          ),
        },
        { required: ['groupVersion', 'resources'] },
      ),
      'APIResourceList',
      core,
    ),
    [`${meta}.APIResource`]: object(
      'APIResource specifies the name of a resource and whether it is namespaced.',
      {
        categories: arrayOf(
          { type: 'string', default: '' },
          "categories is a list of the grouped resources this resource belongs to (e.g. 'all')",
          { 'x-kubernetes-list-type': 'atomic' },
        ),
        group: str('group is the preferred group of the resource.'),
        kind: str("kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')", {
          default: '',
        }),
        name: str('name is the plural name of the resource.', { default: '' }),
        namespaced: bool('namespaced indicates if a resource is namespaced or not.'),
        shortNames: arrayOf(
          { type: 'string', default: '' },
          'shortNames is a list of suggested short names of the resource.',
          { 'x-kubernetes-list-type': 'atomic' },
        ),
        singularName: str('singularName is the singular name of the resource.', { default: '' }),
        storageVersionHash: str(
          'The hash value of the storage version, the version this resource is converted to when written to the data store.',
        ),
        verbs: arrayOf({ type: 'string', default: '' }, 'verbs is a list of supported kube verbs.'),
        version: str('version is the preferred version of the resource.'),
      },
      { required: ['name', 'singularName', 'namespaced', 'kind', 'verbs'] },
    ),
    [`${meta}.Patch`]: {
      description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
      type: 'object',
    },
    [rawExtension]: {
      description: 'RawExtension is used to hold extensions in external versions.',
      type: 'object',
    },
  };
}
