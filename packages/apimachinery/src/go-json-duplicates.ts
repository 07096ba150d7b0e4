/**
 * The duplicate-member check of Kubernetes' strict JSON decoder (sigs.k8s.io/json
 * DisallowDuplicateFields): which member names appear twice in one object, as the dotted paths
 * its strict errors print (`metadata.labels.a`, `items[0].name`). JSON.parse keeps the last
 * value silently, as Go's decoder does; this finds what fieldValidation reports.
 */

/** One open object or array: where it sits in its parent and, for an object, the names seen so far. */
interface Frame {
  /** The member name or element index it sits under; undefined for the document itself. */
  readonly key: string | number | undefined;
  readonly names: Set<string> | undefined;
  /** The next element's index, for an array. */
  index: number;
}

/**
 * Whether a JSON object body repeats a member name somewhere, from its bytes and `parsed`, the
 * untouched result of JSON.parse of them: every member of the text has exactly one `:` outside
 * strings, and JSON.parse keeps one key per distinct name of an object, so the text repeats a
 * name exactly when it has more such colons than `parsed` has keys. Both counts are one plain
 * pass, where jsonDuplicateFields tokenises every member; a write then runs that only when
 * there is something to report.
 */
export function jsonHasDuplicateFields(raw: Uint8Array, parsed: unknown): boolean {
  let members = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i];
    // UTF-8 continuation bytes are all >= 0x80, so these three bytes are always themselves.
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x3a) members++;
  }
  return members !== keyCount(parsed);
}

/** The own keys of every object in a parsed JSON value, iteratively (it may nest 10,000 deep). */
function keyCount(value: unknown): number {
  let keys = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (const item of v) if (typeof item === 'object' && item !== null) pending.push(item);
      continue;
    }
    // JSON.parse makes plain objects with own data keys only (`__proto__` included), so for-in
    // sees exactly those.
    for (const k in v) {
      keys++;
      const item = (v as Record<string, unknown>)[k];
      if (typeof item === 'object' && item !== null) pending.push(item);
    }
  }
  return keys;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Paths of repeated members in `text` (valid JSON), each once, in order, at most `limit`.
 * Iterative, with the path kept as keys: a body may nest up to Go's 10,000 levels, deeper than a
 * recursive walk's stack and too deep to copy the path string at every level. Every write with
 * fieldValidation Warn (the default) runs this, so it compares character codes and decodes only
 * member names, and only those with escapes through JSON.parse.
 */
export function jsonDuplicateFields(text: string, limit = 100): string[] {
  const out: string[] = [];
  const stack: Frame[] = [];
  const n = text.length;
  let i = 0;
  const skipSpace = (): void => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  /** Moves past the string starting at i (its opening quote). */
  const skipString = (): void => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) break;
      i += c === 0x5c ? 2 : 1;
    }
    i++;
  };
  const readString = (): string => {
    const start = i;
    skipString();
    const raw = text.slice(start + 1, i - 1);
    return raw.includes('\\') ? (JSON.parse(text.slice(start, i)) as string) : raw;
  };
  const pathOf = (last: string): string => {
    let path = '';
    for (let k = 1; k < stack.length; k++) {
      const key = stack[k]!.key;
      path += typeof key === 'number' ? `[${key}]` : `.${key}`;
    }
    path += `.${last}`;
    return path.startsWith('.') ? path.slice(1) : path;
  };
  /** Opens the value at i if it is an object or array, else skips it. */
  const open = (key: string | number | undefined): void => {
    skipSpace();
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      stack.push({ key, names: c === 0x7b ? new Set() : undefined, index: 0 });
    } else if (c === 0x22) skipString();
    else
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x2c || d === 0x7d || d === 0x5d || isSpace(d)) break;
        i++;
      }
  };
  open(undefined);
  while (stack.length > 0 && i < n) {
    const top = stack[stack.length - 1]!;
    skipSpace();
    if (text.charCodeAt(i) === 0x2c) {
      i++;
      skipSpace();
    }
    const c = text.charCodeAt(i);
    if (c === 0x7d || c === 0x5d) {
      i++;
      stack.pop();
      continue;
    }
    if (top.names === undefined) {
      open(top.index++);
      continue;
    }
    const name = readString();
    if (top.names.has(name)) {
      const child = pathOf(name);
      if (!out.includes(child) && out.length < limit) out.push(child);
    } else top.names.add(name);
    skipSpace();
    i++; // ':'
    open(name);
  }
  return out;
}
