/** Typed reads of the loosely-typed connection-config document, each failing with one line. */

/** A connection-config problem; the message is one line naming the file (or flag) and the problem. */
export class ConnectionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectionConfigError';
  }
}

export type Fields = Readonly<Record<string, unknown>>;
type Fail = (problem: string) => Error;

export function optString(fields: Fields, name: string, where: string, fail: Fail): string | undefined {
  const v = fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw fail(`${where}: ${name} must be a string`);
  return v;
}

export function optBool(fields: Fields, name: string, where: string, fail: Fail): boolean | undefined {
  const v = fields[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw fail(`${where}: ${name} must be true or false`);
  return v;
}

/**
 * The body of the named entry of a list such as `clusters` (`[{name, cluster: {...}}]`), or
 * undefined when no entry has that name.
 */
export function entryIn(
  doc: Fields,
  list: 'clusters' | 'users' | 'contexts',
  member: 'cluster' | 'user' | 'context',
  name: string,
  fail: Fail,
): Fields | undefined {
  const entries = doc[list];
  if (entries === undefined || entries === null) return undefined;
  if (!Array.isArray(entries)) throw fail(`${list} must be a list`);
  for (const [i, entry] of (entries as unknown[]).entries()) {
    if (!isFields(entry)) throw fail(`${list}[${i}] must be a mapping`);
    if (entry['name'] !== name) continue;
    const body = entry[member];
    if (body === undefined || body === null) return {};
    if (!isFields(body)) throw fail(`${list}[${i}].${member} must be a mapping`);
    return body;
  }
  return undefined;
}

function isFields(v: unknown): v is Fields {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
