/**
 * The apiVersion/kind checks the API server makes before and after decoding a body (json
 * serializer Interpret + gvkWithDefaults, scheme lookup, transformDecodeError and
 * AcceptsGroupVersion), with their 400 BadRequest texts, for any kind.
 */
import { badRequest, goQuote, type StatusError } from '@keel/apimachinery';
import {
  decodeWire,
  jsonKind,
  WireDecodeError,
  type DecodeOptions,
  type WireDecoded,
} from './wire-decode.js';
import type { StructSpec } from './wire-spec.js';

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

/** Kinds registered per group/version (`v1`, `coordination.k8s.io/v1beta1`), as the scheme knows them. */
export type Scheme = ReadonlyMap<string, ReadonlySet<string>>;

/** What a served kind's decoder must know about it and its scheme. */
export interface KindTarget extends GroupVersion {
  readonly kind: string;
  readonly scheme: Scheme;
  /** Go package path of the internal type (for the conversion error). */
  readonly internalPackage: string;
}

/** Where Kubernetes keeps the external types of a group/version (`k8s.io/api/core/v1`). */
export function externalPackage(gv: GroupVersion): string {
  const group = gv.group === '' ? 'core' : (gv.group.split('.')[0] ?? gv.group);
  return `k8s.io/api/${group}/${gv.version}`;
}

export function groupVersionString(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

const schemeName = 'k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30';
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** `<Kind> in version "<v>" cannot be handled as a <Target>: <err>`. */
export function cannotHandle(kind: string, version: string, target: string, err: string): StatusError {
  return badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a ${target}: ${err}`);
}

/** Go's summarizeData: the body's start, as text when it is an object, else as hex. */
function summarize(body: unknown): string {
  const data = Buffer.from(JSON.stringify(body) ?? '', 'utf8');
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const more = data.length > 30 ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

function unrecognized(target: string, err: string, body: unknown): StatusError {
  return badRequest(
    `the object provided is unrecognized (must be of type ${target}): ${err} (${summarize(body)})`,
  );
}

/** schema.ParseGroupVersion. */
function parseGroupVersion(s: string): GroupVersion | undefined {
  if (s === '' || s === '/') return { group: '', version: '' };
  const parts = s.split('/');
  if (parts.length > 2) return undefined;
  return parts.length === 1 ? { group: '', version: s } : { group: parts[0] ?? '', version: parts[1] ?? '' };
}

/** Interpret's lenient read of apiVersion and kind (encoding/json matches keys ignoring case). */
function findKind(body: Record<string, unknown>): { apiVersion: string; kind: string } | string {
  const found = { apiVersion: '', kind: '' };
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    const field = lower === 'apiversion' ? 'apiVersion' : lower === 'kind' ? 'kind' : undefined;
    if (!field || value === null) continue;
    if (typeof value !== 'string') {
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go struct field .${field} of type string`;
    }
    found[field] = value;
  }
  return found;
}

/**
 * Checks the body's apiVersion and kind against the served target, filling absent ones from it
 * as Go does. Returns the body as an object (`null` decodes as `{}`); throws a 400 otherwise.
 */
export function checkTypeMeta(body: unknown, target: KindTarget): Record<string, unknown> {
  if (body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    const err = `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(body)} into Go value of type ${findKindType}`;
    throw unrecognized(target.kind, err, body);
  }
  const obj = body as Record<string, unknown>;
  const found = findKind(obj);
  if (typeof found === 'string') throw unrecognized(target.kind, found, body);
  const parsed = parseGroupVersion(found.apiVersion);
  if (!parsed) throw unrecognized(target.kind, `unexpected GroupVersion string: ${found.apiVersion}`, body);
  const kind = found.kind || target.kind;
  let gv = parsed;
  if (!gv.version && !gv.group) gv = target;
  else if (!gv.version && gv.group === target.group) gv = { group: gv.group, version: target.version };
  const gvText = groupVersionString(gv);
  const served = groupVersionString(target);
  const registered = target.scheme.get(gvText)?.has(kind) ?? false;
  if (!registered) {
    const err = `no kind ${goQuote(kind)} is registered for version ${goQuote(gvText)} in scheme ${goQuote(schemeName)}`;
    throw cannotHandle(kind, gv.version, target.kind, err);
  }
  if (kind !== target.kind) {
    // Go decodes the other kind, then finds no conversion to the served type.
    const err = `converting (${externalPackage(gv)}) ${kind} to (${target.internalPackage}) ${target.kind}: unknown conversion`;
    throw cannotHandle(kind, gv.version, target.kind, err);
  }
  if (gvText !== served) {
    throw badRequest(
      `the API version in the data (${gvText}) does not match the expected API version (${served})`,
    );
  }
  return obj;
}

/** checkTypeMeta, then decodeWire; a decode failure becomes Go's "cannot be handled" 400. */
export function decodeTyped(
  body: unknown,
  target: KindTarget,
  spec: StructSpec,
  options?: DecodeOptions,
): WireDecoded {
  const obj = checkTypeMeta(body, target);
  try {
    return decodeWire(obj, spec, options);
  } catch (err) {
    if (err instanceof WireDecodeError)
      throw cannotHandle(target.kind, target.version, target.kind, err.message);
    throw err;
  }
}
