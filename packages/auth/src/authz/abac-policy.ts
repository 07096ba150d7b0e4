import { ALL_AUTHENTICATED } from '../authn/types.js';

export const ABAC_GROUP = 'abac.authorization.kubernetes.io';
const V1BETA1 = `${ABAC_GROUP}/v1beta1`;
const V0 = `${ABAC_GROUP}/v0`;

/** One ABAC rule after conversion (kube's internal abac.PolicySpec). */
export interface PolicySpec {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

export class PolicyDecodeError extends Error {}

function jsonType(v: unknown): string {
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

type Fields = Record<string, unknown>;

function field<T extends 'string' | 'boolean'>(
  obj: Fields,
  key: string,
  type: T,
  where: string,
): T extends 'string' ? string : boolean {
  const v = obj[key];
  type R = T extends 'string' ? string : boolean;
  if (v === undefined || v === null) return (type === 'string' ? '' : false) as R;
  if (typeof v !== type) {
    const goType = type === 'string' ? 'string' : 'bool';
    throw new PolicyDecodeError(
      `json: cannot unmarshal ${jsonType(v)} into Go struct field ${where}.${key} of type ${goType}`,
    );
  }
  return v as R;
}

/** The v1beta1 spec; `*` as user or group becomes the group system:authenticated (not anonymous users). */
function fromV1beta1(obj: Fields): PolicySpec {
  const raw = obj.spec ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new PolicyDecodeError(
      `json: cannot unmarshal ${jsonType(raw)} into Go struct field Policy.spec of type v1beta1.PolicySpec`,
    );
  }
  const spec = raw as Fields;
  const s = (k: string): string => field(spec, k, 'string', 'PolicySpec.spec');
  let user = s('user');
  let group = s('group');
  if (user === '*' || group === '*') {
    user = '';
    group = ALL_AUTHENTICATED;
  }
  return {
    user,
    group,
    readonly: field(spec, 'readonly', 'boolean', 'PolicySpec.spec'),
    apiGroup: s('apiGroup'),
    resource: s('resource'),
    namespace: s('namespace'),
    nonResourcePath: s('nonResourcePath'),
  };
}

/**
 * The unversioned (v0) form: flat fields, where empty user and group mean every authenticated
 * user, `*` likewise, empty namespace or resource mean all, every API group matches, and a rule
 * with neither namespace nor resource also covers every non-resource path.
 */
function fromV0(obj: Fields): PolicySpec {
  const s = (k: string): string => field(obj, k, 'string', 'Policy');
  const inUser = s('user');
  const inGroup = s('group');
  const inNamespace = s('namespace');
  const inResource = s('resource');
  let user = inUser;
  let group = inGroup;
  if (inUser === '' && inGroup === '') group = ALL_AUTHENTICATED;
  if (inUser === '*' || inGroup === '*') {
    group = ALL_AUTHENTICATED;
    user = '';
  }
  return {
    user,
    group,
    readonly: field(obj, 'readonly', 'boolean', 'Policy'),
    apiGroup: '*',
    resource: inResource === '' ? '*' : inResource,
    namespace: inNamespace === '' ? '*' : inNamespace,
    nonResourcePath: inNamespace === '' && inResource === '' ? '*' : '',
  };
}

/** One policy line; `unversioned` lines (no apiVersion or kind) are read as v0 and earn a warning. */
export function decodePolicyLine(line: string): { spec: PolicySpec; unversioned: boolean } {
  let obj: unknown;
  try {
    obj = JSON.parse(line);
  } catch (err) {
    throw new PolicyDecodeError(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
    throw new PolicyDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(obj)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const fields = obj as Fields;
  let apiVersion: string;
  let kind: string;
  try {
    apiVersion = field(fields, 'apiVersion', 'string', '');
    kind = field(fields, 'kind', 'string', '');
  } catch (err) {
    throw new PolicyDecodeError(`couldn't get version/kind; json parse error: ${(err as Error).message}`);
  }
  if (apiVersion === '' || kind === '') return { spec: fromV0(fields), unversioned: true };
  if (kind === 'Policy' && apiVersion === V1BETA1) return { spec: fromV1beta1(fields), unversioned: false };
  if (kind === 'Policy' && apiVersion === V0) return { spec: fromV0(fields), unversioned: false };
  throw new PolicyDecodeError(
    `no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)}`,
  );
}
