import type { ServerResponse } from 'node:http';
import { badRequest, goQuote, type FieldValidationDirective } from '@keel/apimachinery';
import type { Decoded, InternalObject, ResourceView } from '../../registry/resource-view.js';

/** Go's quoting for the Warning header text: backslash before `"` and `\`. */
function warningText(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** What fieldValidation is about: unknown and duplicate fields, in the JSON decoder's words. */
export function strictProblems(decoded: Decoded<unknown>, duplicates: readonly string[] = []): string[] {
  const unknown = decoded.unknownFields;
  // Members the decoder skipped as unknown are not checked for repeats.
  const insideUnknown = (p: string) =>
    unknown.some((u) => p === u || p.startsWith(`${u}.`) || p.startsWith(`${u}[`));
  return [
    // The JSON decoder quotes the path Go-style (strconv.Quote).
    ...unknown.map((f) => `unknown field ${goQuote(f)}`),
    ...[...(decoded.duplicateFields ?? []), ...duplicates.filter((d) => !insideUnknown(d))].map(
      (f) => `duplicate field ${goQuote(f)}`,
    ),
  ];
}

/** One `Warning: 299 - "..."` header per problem, after any already set. */
export function addWarnings(res: ServerResponse, problems: readonly string[]): void {
  const existing = res.getHeader('Warning');
  const warnings = [
    ...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []),
    ...problems.map(warningText),
  ];
  res.setHeader('Warning', warnings);
}

/**
 * Decodes a body through the view and applies fieldValidation: Strict refuses unknown and
 * duplicate fields with a 400, Warn (the default) drops them with a Warning header each, Ignore
 * drops them silently.
 */
export function decodeWithValidation<I extends InternalObject>(
  view: ResourceView<I>,
  body: unknown,
  directive: FieldValidationDirective,
  res: ServerResponse,
  duplicates: () => readonly string[] = () => [],
): Decoded<I> {
  // Before the decode: the duplicate check may count the members of `body` as JSON.parse made it.
  const repeated = directive === 'Ignore' ? [] : duplicates();
  const decoded = view.decode(body);
  const problems = strictProblems(decoded, repeated);
  if (problems.length === 0 || directive === 'Ignore') return decoded;
  if (directive === 'Strict') {
    throw badRequest(
      `${view.kind} in version "${view.version}" cannot be handled as a ${view.kind}: strict decoding error: ${problems.join(', ')}`,
    );
  }
  addWarnings(res, problems);
  return decoded;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The members of `sent` that `kept` still has, recursively through objects. */
function keptPart(sent: Record<string, unknown>, kept: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(sent)) {
    if (!Object.hasOwn(kept, k)) continue;
    const v = sent[k];
    const kv = kept[k];
    out[k] = isPlainObject(v) && isPlainObject(kv) ? keptPart(v, kv) : v;
  }
  return out;
}

/**
 * A request body as a field-set source: what the client sent and the decoded object kept (fields
 * fieldValidation dropped are owned by no one); anything but an object (a JSON patch's op list)
 * sets nothing.
 */
export function wireObject<I extends InternalObject>(
  body: unknown,
  view: ResourceView<I>,
  decoded: I,
): Record<string, unknown> {
  return isPlainObject(body) ? keptPart(body, view.encode(decoded)) : {};
}
