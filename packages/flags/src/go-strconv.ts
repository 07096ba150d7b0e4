/** Go strconv-compatible scalar parsing, with strconv's error texts. */

const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export function parseGoBool(raw: string): boolean {
  if (TRUE.has(raw)) return true;
  if (FALSE.has(raw)) return false;
  throw new Error(`strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
}

/** strconv.ParseInt(s, 0, bits): decimal, 0x, 0o, 0b and leading-0 octal, with underscores between digits. */
export function parseGoInt(raw: string, bits: 32 | 64): number {
  const syntax = new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(raw);
  if (!m) throw syntax;
  const sign = m[1] === '-' ? -1n : 1n;
  let body = m[2] ?? '';
  if (body.includes('__') || body.endsWith('_')) throw syntax;
  body = body.replaceAll('_', '');
  let value: bigint;
  if (/^0[oO]/.test(body)) value = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) value = BigInt('0o' + body.slice(1));
  else value = BigInt(body);
  value *= sign;
  const limit = 1n << BigInt(bits - 1);
  if (value >= limit || value < -limit) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  }
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new Error(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: value out of range`);
  }
  return Number(value);
}

export function parseGoFloat(raw: string): number {
  const trimmed = raw.replaceAll('_', '');
  if (!/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|[iI]nf(inity)?|NaN)$/.test(trimmed)) {
    throw new Error(`strconv.ParseFloat: parsing ${JSON.stringify(raw)}: invalid syntax`);
  }
  const v = /inf/i.test(trimmed) ? (trimmed.startsWith('-') ? -Infinity : Infinity) : Number(trimmed);
  return v;
}

/** Go's csv.Reader on one line, as pflag uses for string slices. */
export function readCsvLine(raw: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (raw[i] === '"') {
      let field = '';
      i++;
      for (;;) {
        if (i >= raw.length)
          throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
        if (raw[i] === '"') {
          if (raw[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += raw[i];
        i++;
      }
      if (i < raw.length && raw[i] !== ',') {
        throw new Error(`parse error on line 1, column ${i + 1}: extraneous or missing " in quoted-field`);
      }
      out.push(field);
    } else {
      const end = raw.indexOf(',', i);
      const field = end === -1 ? raw.slice(i) : raw.slice(i, end);
      if (field.includes('"'))
        throw new Error(
          `parse error on line 1, column ${i + field.indexOf('"') + 1}: bare " in non-quoted-field`,
        );
      out.push(field);
      i = end === -1 ? raw.length : end;
    }
    if (i >= raw.length) break;
    i++; // the comma
    if (i === raw.length) {
      out.push('');
      break;
    }
  }
  return out;
}

/** Go's csv.Writer on one record, as pflag uses to print string slices. */
export function writeCsvLine(fields: readonly string[]): string {
  return fields
    .map((f) => (/[",\n\r]/.test(f) || f.startsWith(' ') ? `"${f.replaceAll('"', '""')}"` : f))
    .join(',');
}
