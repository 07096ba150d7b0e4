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
