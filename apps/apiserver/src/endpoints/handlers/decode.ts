import type { ServerResponse } from 'node:http';
import { badRequest, type FieldValidationDirective } from '@keel/apimachinery';
import type { Decoded, InternalObject, ResourceView } from '../../registry/resource-view.js';

/** Go's quoting for the Warning header text: backslash before `"` and `\`. */
function warningText(text: string): string {
  return `299 - "${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
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
): Decoded<I> {
  const decoded = view.decode(body);
  const problems = [
    ...decoded.unknownFields.map((f) => `unknown field "${f}"`),
    ...(decoded.duplicateFields ?? []).map((f) => `duplicate field "${f}"`),
  ];
  if (problems.length === 0 || directive === 'Ignore') return decoded;
  if (directive === 'Strict') {
    throw badRequest(
      `${view.kind} in version "${view.version}" cannot be handled as a ${view.kind}: strict decoding error: ${problems.join(', ')}`,
    );
  }
  const existing = res.getHeader('Warning');
  const warnings = [
    ...(Array.isArray(existing) ? existing : existing ? [String(existing)] : []),
    ...problems.map(warningText),
  ];
  res.setHeader('Warning', warnings);
  return decoded;
}

/** A request body as a field-set source: objects as sent, anything else (a JSON patch's op list) as nothing. */
export function wireObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
