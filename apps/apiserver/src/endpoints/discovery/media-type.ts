/**
 * Accept-header parsing as the real server does it (goautoneg.ParseAccept): clauses ordered by
 * q, then by specificity, and the first clause an endpoint can serve decides the response. As
 * there, nothing is lower-cased or unquoted and a q=0 clause is kept (sorted last, not refused).
 */

export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  /** Names and values as sent, trimmed of spaces; `q` is kept apart. */
  readonly params: Readonly<Record<string, string>>;
  readonly q: number;
}

const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');

function parseClause(text: string): MediaRange | undefined {
  const [range = '', ...rawParams] = trimSpaces(text).split(';');
  const slash = range.split('/');
  const type = trimSpaces(slash[0] ?? '');
  let subtype: string;
  if (slash.length === 1) {
    // goautoneg reads a bare `*` as `*\/*`; any other type without a subtype is dropped.
    if (type !== '*') return undefined;
    subtype = '*';
  } else if (slash.length === 2) {
    subtype = trimSpaces(slash[1] ?? '');
  } else {
    return undefined;
  }
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of rawParams) {
    const kv = p.split('=');
    if (kv.length !== 2) continue;
    const name = trimSpaces(kv[0] ?? '');
    const value = kv[1] ?? '';
    if (name === 'q') {
      // strconv.ParseFloat of the value as sent: anything else (spaces too) is 0.
      q = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : 0;
    } else {
      params[name] = trimSpaces(value);
    }
  }
  return { type, subtype, params, q };
}

/** acceptSlice.Less: a higher q, or else a specific type or subtype before a wildcard. */
function less(a: MediaRange, b: MediaRange): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subtype !== '*' && b.subtype === '*') return true;
  return false;
}

/**
 * The clauses in the order the server tries them; an absent or blank header means `*\/*`. The
 * order is sort.Sort's with that Less (an insertion sort for the dozen clauses a client sends),
 * so a specific clause can come before a wildcard of higher q, as in the reference.
 */
export function parseAccept(header: string | undefined): MediaRange[] {
  const text = header?.trim() ? header : '*/*';
  const clauses = text.split(',').flatMap((part) => parseClause(part) ?? []);
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j] as MediaRange, clauses[j - 1] as MediaRange); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j] as MediaRange, clauses[j - 1] as MediaRange];
    }
  }
  return clauses;
}

/** Whether the clause admits `type/subtype` (wildcards included). */
export function rangeMatches(c: MediaRange, type: string, subtype: string): boolean {
  return (c.type === '*' || c.type === type) && (c.subtype === '*' || c.subtype === subtype);
}

/** A clause that admits plain JSON and asks for no `as=` transformation. */
export function isPlainJson(c: MediaRange): boolean {
  return rangeMatches(c, 'application', 'json') && c.params['as'] === undefined;
}

/** A clause asking for the protobuf encoding of the object itself (no `as=` transformation). */
export function isPlainProtobuf(c: MediaRange): boolean {
  return c.type === 'application' && c.subtype === 'vnd.kubernetes.protobuf' && c.params['as'] === undefined;
}

/** A clause asking for JSON transformed into group `g`, version in `versions`, kind `as`. */
export function asTransform(
  c: MediaRange,
  group: string,
  kind: string,
  versions: readonly string[],
): string | undefined {
  if (c.type !== 'application' || c.subtype !== 'json') return undefined;
  const { g, v, as } = c.params;
  return g === group && as === kind && v !== undefined && versions.includes(v) ? v : undefined;
}
