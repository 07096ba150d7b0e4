/**
 * The query and path parameters of resource operations (api-semantics §3–§6), rendered inline:
 * kubectl's fieldValidation check (§10.5) accepts an inline PATCH parameter in both versions.
 */

export type ParamName =
  | 'allowWatchBookmarks'
  | 'continue'
  | 'dryRun'
  | 'fieldManager'
  | 'fieldSelector'
  | 'fieldValidation'
  | 'force'
  | 'gracePeriodSeconds'
  | 'ignoreStoreReadErrorWithClusterBreakingPotential'
  | 'labelSelector'
  | 'limit'
  | 'name'
  | 'namespace'
  | 'orphanDependents'
  | 'pretty'
  | 'propagationPolicy'
  | 'resourceVersion'
  | 'resourceVersionMatch'
  | 'sendInitialEvents'
  | 'timeoutSeconds'
  | 'watch';

interface ParamSpec {
  readonly type: 'string' | 'boolean' | 'integer';
  readonly description: string;
}

const q = (type: ParamSpec['type'], description: string): ParamSpec => ({ type, description });

const specs: Readonly<Record<Exclude<ParamName, 'name' | 'namespace'>, ParamSpec>> = {
  allowWatchBookmarks: q(
    'boolean',
    'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion.',
  ),
  continue: q(
    'string',
    'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue).',
  ),
  dryRun: q(
    'string',
    'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  ),
  fieldManager: q(
    'string',
    'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.',
  ),
  fieldSelector: q(
    'string',
    'A selector to restrict the list of returned objects by their fields. Defaults to everything.',
  ),
  fieldValidation: q(
    'string',
    'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default. - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.',
  ),
  force: q(
    'boolean',
    'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  ),
  gracePeriodSeconds: q(
    'integer',
    'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.',
  ),
  ignoreStoreReadErrorWithClusterBreakingPotential: q(
    'boolean',
    'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error.',
  ),
  labelSelector: q(
    'string',
    'A selector to restrict the list of returned objects by their labels. Defaults to everything.',
  ),
  limit: q(
    'integer',
    'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results.',
  ),
  orphanDependents: q(
    'boolean',
    'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned.',
  ),
  pretty: q(
    'string',
    "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
  ),
  propagationPolicy: q(
    'string',
    "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. Acceptable values are: 'Orphan', 'Background', 'Foreground'.",
  ),
  resourceVersion: q(
    'string',
    'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details. Defaults to unset',
  ),
  resourceVersionMatch: q(
    'string',
    'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set. Defaults to unset',
  ),
  sendInitialEvents: q(
    'boolean',
    '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection.',
  ),
  timeoutSeconds: q(
    'integer',
    'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.',
  ),
  watch: q(
    'boolean',
    'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.',
  ),
};

export const listParams: readonly ParamName[] = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'sendInitialEvents',
  'timeoutSeconds',
  'watch',
];
export const writeParams: readonly ParamName[] = ['dryRun', 'fieldManager', 'fieldValidation'];
export const patchParams: readonly ParamName[] = [...writeParams, 'force'];
export const deleteParams: readonly ParamName[] = [
  'dryRun',
  'gracePeriodSeconds',
  'ignoreStoreReadErrorWithClusterBreakingPotential',
  'orphanDependents',
  'propagationPolicy',
];
export const deleteCollectionParams: readonly ParamName[] = [...new Set([...deleteParams, ...listParams])]
  .filter((p) => p !== 'watch' && p !== 'allowWatchBookmarks')
  .sort();

interface ParamParts {
  readonly name: ParamName;
  readonly in: 'path' | 'query';
  readonly type: string;
  readonly description: string;
  readonly required: boolean;
}

function parts(name: ParamName, kind: string): ParamParts {
  if (name === 'name')
    return { name, in: 'path', type: 'string', description: `name of the ${kind}`, required: true };
  if (name === 'namespace') {
    return {
      name,
      in: 'path',
      type: 'string',
      description: 'object name and auth scope, such as for teams and projects',
      required: true,
    };
  }
  return { name, in: 'query', ...specs[name], required: false };
}

export function paramV2(name: ParamName, kind: string): Record<string, unknown> {
  const p = parts(name, kind);
  return {
    uniqueItems: true,
    type: p.type,
    description: p.description,
    name: p.name,
    in: p.in,
    ...(p.required ? { required: true } : {}),
  };
}

export function paramV3(name: ParamName, kind: string): Record<string, unknown> {
  const p = parts(name, kind);
  return {
    name: p.name,
    in: p.in,
    description: p.description,
    ...(p.required ? { required: true } : {}),
    schema: { type: p.type, uniqueItems: true },
  };
}
