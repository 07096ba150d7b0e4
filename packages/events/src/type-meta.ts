/**
 * The apiVersion/kind checks the API server makes before and after decoding a body
 * (json serializer Interpret + gvkWithDefaults, scheme lookup, handlers' transformDecodeError and
 * AcceptsGroupVersion), with their 400 BadRequest texts.
 */
import { badRequest, goQuote, type StatusError } from '@keel/apimachinery';
import { decodeWire, jsonKind, WireDecodeError, type StructSpec, type WireDecoded } from './wire-decode.js';

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export function groupVersionString(gv: GroupVersion): string {
  return gv.group ? `${gv.group}/${gv.version}` : gv.version;
}

/** Where Event is registered in the real scheme (events.k8s.io/v1beta1 is registered, not served). */
const eventGroupVersions = new Set(['v1', 'events.k8s.io/v1', 'events.k8s.io/v1beta1']);
const schemeName = 'k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30';
const findKindType =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/** `<Kind> in version "<v>" cannot be handled as a Event: <err>`. */
export function cannotHandle(kind: string, version: string, err: string): StatusError {
  return badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a Event: ${err}`);
}

/** Go's summarizeData: the body's start, as text when it is an object, else as hex. */
function summarize(body: unknown): string {
  const data = Buffer.from(JSON.stringify(body) ?? '', 'utf8');
  if (data.length === 0) return '<empty>';
  const head = data.subarray(0, 30);
  const more = data.length > 30 ? ' ...' : '';
  return data[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

function unrecognized(err: string, body: unknown): StatusError {
  return badRequest(
    `the object provided is unrecognized (must be of type Event): ${err} (${summarize(body)})`,
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
    const field =
      key.toLowerCase() === 'apiversion' ? 'apiVersion' : key.toLowerCase() === 'kind' ? 'kind' : undefined;
    if (!field || value === null) continue;
    if (typeof value !== 'string') {
      return `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go struct field .${field} of type string`;
    }
    found[field] = value;
  }
  return found;
}

/**
 * Checks the body's apiVersion and kind against the served `expected` version, filling absent
 * ones from it as Go does. Returns the body as an object (`null` decodes as `{}`); throws a
 * 400 StatusError otherwise.
 */
export function checkTypeMeta(body: unknown, expected: GroupVersion): Record<string, unknown> {
  if (body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw unrecognized(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(body)} into Go value of type ${findKindType}`,
      body,
    );
  }
  const obj = body as Record<string, unknown>;
  const found = findKind(obj);
  if (typeof found === 'string') throw unrecognized(found, body);
  const parsed = parseGroupVersion(found.apiVersion);
  if (!parsed) throw unrecognized(`unexpected GroupVersion string: ${found.apiVersion}`, body);
  const kind = found.kind || 'Event';
  let gv = parsed;
  if (!gv.version && !gv.group) gv = expected;
  else if (!gv.version && gv.group === expected.group) gv = { group: gv.group, version: expected.version };
  const gvText = groupVersionString(gv);
  if (kind !== 'Event' || !eventGroupVersions.has(gvText)) {
    throw cannotHandle(
      kind,
      gv.version,
      `no kind ${goQuote(kind)} is registered for version ${goQuote(gvText)} in scheme ${goQuote(schemeName)}`,
    );
  }
  if (gvText !== groupVersionString(expected)) {
    throw badRequest(
      `the API version in the data (${gvText}) does not match the expected API version (${groupVersionString(expected)})`,
    );
  }
  return obj;
}

/** checkTypeMeta, then decodeWire; a decode failure becomes Go's "cannot be handled" 400. */
export function decodeTyped(body: unknown, expected: GroupVersion, spec: StructSpec): WireDecoded {
  const obj = checkTypeMeta(body, expected);
  try {
    return decodeWire(obj, spec);
  } catch (err) {
    if (err instanceof WireDecodeError) throw cannotHandle('Event', expected.version, err.message);
    throw err;
  }
}
