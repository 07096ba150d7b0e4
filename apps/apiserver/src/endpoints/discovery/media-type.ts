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

/** strings.TrimFunc(s, r == ' '): spaces only (a tab stays), without a regex on the hot path. */
function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s.charCodeAt(start) === 32) start++;
  while (end > start && s.charCodeAt(end - 1) === 32) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function parseClause(text: string): MediaRange | undefined {
  const clause = trimSpaces(text);
  const semi = clause.indexOf(';');
  const range = semi < 0 ? clause : clause.slice(0, semi);
  const slash = range.indexOf('/');
  const type = trimSpaces(slash < 0 ? range : range.slice(0, slash));
  let subtype: string;
  if (slash < 0) {
    // goautoneg reads a bare `*` as `*\/*`; any other type without a subtype is dropped.
    if (type !== '*') return undefined;
    subtype = '*';
  } else if (range.indexOf('/', slash + 1) < 0) {
    subtype = trimSpaces(range.slice(slash + 1));
  } else {
    return undefined;
  }
  if (semi < 0) return { type, subtype, params: NO_PARAMS, q: 1 };
  const params: Record<string, string> = {};
  let q = 1;
  for (const p of clause.slice(semi + 1).split(';')) {
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
  const clauses: MediaRange[] = [];
  for (const part of text.split(',')) {
    const c = parseClause(part);
    if (c) clauses.push(c);
  }
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
