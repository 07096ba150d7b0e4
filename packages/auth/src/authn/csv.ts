/**
 * Go's encoding/csv reader with the settings kube's token file uses (comma separator, no comment
 * character, strict quotes, variable field counts), so that the same file gives the same records
 * and the same errors: blank lines are skipped, `""` inside a quoted field is a quote, a quoted
 * field may span lines, and `\r\n` counts as `\n`.
 */
export class CsvParseError extends Error {
  constructor(
    readonly startLine: number,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(
      startLine !== line
        ? `record on line ${startLine}; parse error on line ${line}, column ${column}: ${reason}`
        : `parse error on line ${line}, column ${column}: ${reason}`,
    );
    this.name = 'CsvParseError';
  }
}

const BARE_QUOTE = 'bare " in non-quoted-field';
const QUOTE = 'extraneous or missing " in quoted-field';

/** Splits text into lines that keep their `\n` (a final line without one gets none), `\r\n` → `\n`. */
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    let line = nl < 0 ? text.slice(start) : text.slice(start, nl + 1);
    start = nl < 0 ? text.length : nl + 1;
    if (line.endsWith('\r\n')) line = `${line.slice(0, -2)}\n`;
    else if (nl < 0 && line.endsWith('\r')) line = line.slice(0, -1);
    lines.push(line);
  }
  return lines;
}

function withoutNewline(s: string): string {
  return s.endsWith('\n') ? s.slice(0, -1) : s;
}

/** Columns are 1-based byte offsets in Go; count UTF-8 bytes so non-ASCII lines report the same. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

export function parseCsv(text: string): string[][] {
  const lines = splitLines(text);
  const records: string[][] = [];
  let next = 0;
  const readLine = (): string | undefined => (next < lines.length ? lines[next++] : undefined);

  for (;;) {
    let line = readLine();
    while (line === '\n') line = readLine();
    if (line === undefined) return records;
    const recLine = next;
    let lineNo = next;
    let col = 1;
    const fields: string[] = [];
    for (;;) {
      if (line[0] !== '"') {
        const i = line.indexOf(',');
        const field = i >= 0 ? line.slice(0, i) : withoutNewline(line);
        const q = field.indexOf('"');
        if (q >= 0) throw new CsvParseError(recLine, lineNo, col + byteLength(field.slice(0, q)), BARE_QUOTE);
        fields.push(field);
        if (i < 0) break;
        col += byteLength(line.slice(0, i + 1));
        line = line.slice(i + 1);
        continue;
      }
      // Quoted field.
      let value = '';
      line = line.slice(1);
      col += 1;
      let done: 'field' | 'record' | undefined;
      while (done === undefined) {
        const i = line.indexOf('"');
        if (i >= 0) {
          value += line.slice(0, i);
          col += byteLength(line.slice(0, i + 1));
          line = line.slice(i + 1);
          const rn = line[0];
          if (rn === '"') {
            value += '"';
            line = line.slice(1);
            col += 1;
          } else if (rn === ',') {
            line = line.slice(1);
            col += 1;
            done = 'field';
          } else if (line === '' || line === '\n') {
            done = 'record';
          } else {
            throw new CsvParseError(recLine, lineNo, col - 1, QUOTE);
          }
        } else if (line.length > 0) {
          value += line;
          col += byteLength(line);
          const more = readLine();
          if (more === undefined) throw new CsvParseError(recLine, lineNo, col, QUOTE);
          line = more;
          lineNo = next;
          col = 1;
        } else {
          throw new CsvParseError(recLine, lineNo, col, QUOTE);
        }
      }
      fields.push(value);
      if (done === 'record') break;
    }
    records.push(fields);
  }
}
