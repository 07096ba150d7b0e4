/**
 * The duplicate-member check of Kubernetes' strict JSON decoder (sigs.k8s.io/json
 * DisallowDuplicateFields): which member names appear twice in one object, as the dotted paths
 * its strict errors print (`metadata.labels.a`, `items[0].name`). JSON.parse keeps the last
 * value silently, as Go's decoder does; this finds what fieldValidation reports.
 */

const SPACE = ' \t\r\n';

/** Paths of repeated members in `text` (valid JSON), each once, in order, at most `limit`. */
export function jsonDuplicateFields(text: string, limit = 100): string[] {
  const out: string[] = [];
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
  const value = (path: string): void => {
    skipSpace();
    const c = text[i];
    if (c === '{') {
      i++;
      const names = new Set<string>();
      for (;;) {
        skipSpace();
        if (text[i] === '}') break;
        const name = readString();
        const child = path === '' ? name : `${path}.${name}`;
        if (names.has(name)) {
          if (!out.includes(child) && out.length < limit) out.push(child);
        } else names.add(name);
        skipSpace();
        i++; // ':'
        value(child);
        skipSpace();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (c === '[') {
      i++;
      for (let n = 0; ; n++) {
        skipSpace();
        if (text[i] === ']') break;
        value(`${path}[${n}]`);
        skipSpace();
        if (text[i] === ',') i++;
      }
      i++;
    } else if (c === '"') {
      readString();
    } else {
      while (i < text.length && !',}]'.includes(text[i] ?? '') && !SPACE.includes(text[i] ?? '')) i++;
    }
  };
  value('');
  return out;
}
