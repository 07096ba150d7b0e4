/**
 * The duplicate-member check of Kubernetes' strict JSON decoder (sigs.k8s.io/json
 * DisallowDuplicateFields): which member names appear twice in one object, as the dotted paths
 * its strict errors print (`metadata.labels.a`, `items[0].name`). JSON.parse keeps the last
 * value silently, as Go's decoder does; this finds what fieldValidation reports.
 */

const SPACE = ' \t\r\n';

/** One open object or array: its path segment and, for an object, the names seen so far. */
interface Frame {
  readonly segment: string;
  readonly names: Set<string> | undefined;
  /** The next element's index, for an array. */
  index: number;
}

/**
 * Paths of repeated members in `text` (valid JSON), each once, in order, at most `limit`.
 * Iterative, with the path kept as segments: a body may nest up to Go's 10,000 levels, deeper
 * than a recursive walk's stack and too deep to copy the path string at every level.
 */
export function jsonDuplicateFields(text: string, limit = 100): string[] {
  const out: string[] = [];
  const stack: Frame[] = [];
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && SPACE.includes(text[i] ?? '')) i++;
  };
  const readString = (): string => {
    const start = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const pathOf = (last: string): string => {
    let path = '';
    for (const f of stack.slice(1)) path += f.segment;
    path += last;
    return path.startsWith('.') ? path.slice(1) : path;
  };
  /** Opens the value at i if it is an object or array, else skips it. */
  const open = (segment: string): void => {
    skipSpace();
    const c = text[i];
    if (c === '{' || c === '[') {
      i++;
      stack.push({ segment, names: c === '{' ? new Set() : undefined, index: 0 });
    } else if (c === '"') readString();
    else while (i < text.length && !',}]'.includes(text[i] ?? '') && !SPACE.includes(text[i] ?? '')) i++;
  };
  open('');
  while (stack.length > 0 && i < text.length) {
    const top = stack[stack.length - 1]!;
    skipSpace();
    if (text[i] === ',') {
      i++;
      skipSpace();
    }
    if (text[i] === '}' || text[i] === ']') {
      i++;
      stack.pop();
      continue;
    }
    if (top.names === undefined) {
      open(`[${top.index++}]`);
      continue;
    }
    const name = readString();
    if (top.names.has(name)) {
      const child = pathOf(`.${name}`);
      if (!out.includes(child) && out.length < limit) out.push(child);
    } else top.names.add(name);
    skipSpace();
    i++; // ':'
    open(`.${name}`);
  }
  return out;
}
