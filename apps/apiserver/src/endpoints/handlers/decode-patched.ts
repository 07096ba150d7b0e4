import type { ServerResponse } from 'node:http';
import {
  compareGoStrings,
  goJsonMarshal,
  goSprintV,
  invalid,
  invalidValue,
  StatusError,
  type FieldValidationDirective,
  type PatchType,
} from '@keel/apimachinery';
import type { Decoded, InternalObject, ResourceView } from '../../registry/resource-view.js';
import { addWarnings, strictProblems } from './decode.js';

/** JSON with every object's members sorted, as Go marshals the map a JSON or merge patch yields. */
function sortedJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => compareGoStrings(a, b));
    return Object.fromEntries(entries.map(([k, x]) => [k, sort(x)]));
  };
  return goJsonMarshal(sort(value));
}

/** The decoder's own error text, without the create handler's "cannot be handled" wrapping. */
function decodeErrorText(err: unknown, view: ResourceView): string {
  const text = err instanceof Error ? err.message : String(err);
  const prefix = `${view.kind} in version "${view.version}" cannot be handled as a ${view.kind}: `;
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/**
 * Decodes the result of a JSON, merge or strategic merge patch (patch.go's patchers): an object
 * that does not decode, and under Strict one with unknown fields, is a 422 on the field `patch`
 * whose value is the patched document (JSON and merge patches, as Go marshals it: members sorted)
 * or the patch itself (strategic merge patches, as `%+v` prints it). Warn adds Warning headers.
 */
export function decodePatched<I extends InternalObject>(
  view: ResourceView<I>,
  type: PatchType,
  patched: unknown,
  patch: unknown,
  directive: FieldValidationDirective,
  res: ServerResponse,
): Decoded<I> {
  const fail = (detail: string): StatusError => {
    const shown = type === 'application/strategic-merge-patch+json' ? goSprintV(patch) : sortedJson(patched);
    return invalid({ group: '', kind: '' }, '', [invalidValue('patch', shown, detail)]);
  };
  let decoded: Decoded<I>;
  try {
    decoded = view.decode(patched);
  } catch (err) {
    if (!(err instanceof StatusError)) throw err;
    throw fail(decodeErrorText(err, view));
  }
  const problems = strictProblems(decoded);
  if (problems.length === 0 || directive === 'Ignore') return decoded;
  if (directive === 'Strict') throw fail(`strict decoding error: ${problems.join(', ')}`);
  addWarnings(res, problems);
  return decoded;
}
