/**
 * The few pieces of Go's fmt, strconv and encoding/json whose output reaches clients through
 * error messages. Clients and tests match on these strings, so they follow Go byte for byte
 * where it matters (quoting, JSON escaping, integer parse errors).
 */

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const shortEscapes: Readonly<Record<string, string>> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

export function isGoPrintable(ch: string): boolean {
  return printable.test(ch);
}

// Anything Go would escape: non-printable runes (and lone surrogates), quotes and backslashes.
const needsEscape = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]|["\\]/u;

/** `strconv.Quote`, i.e. what `%q` prints for a string. Also used on logging's hot path. */
export function goQuote(s: string): string {
  if (!needsEscape.test(s)) return `"${s}"`;
  let out = '"';
  for (const raw of s) {
    const ch = isLoneSurrogate(raw) ? '\ufffd' : raw;
    const escaped = shortEscapes[ch];
    if (escaped !== undefined) out += escaped;
    else if (printable.test(ch)) out += ch;
    else out += hexEscape(ch.codePointAt(0) ?? 0);
  }
  return out + '"';
}

function isLoneSurrogate(ch: string): boolean {
  const cp = ch.codePointAt(0) ?? 0;
  return ch.length === 1 && cp >= 0xd800 && cp <= 0xdfff;
}

function hexEscape(cp: number): string {
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Go's `len(s)`: UTF-8 bytes, which is what every length limit in the API counts. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Go compares strings by their UTF-8 bytes (code-point order), not by UTF-16 units. */
export function compareGoStrings(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * `json.Marshal` of a decoded JSON value: like JSON.stringify, plus Go's HTML-safe escapes
 * (`<`, `>`, `&`, U+2028, U+2029) and U+FFFD for lone surrogates. Keys keep insertion order,
 * which is the struct field order for the objects this code builds.
 */
// What may need rewriting; testing for it first spares the common text a second pass.
const marshalRewrites = /[<>&\u2028\u2029]|\\u[dD][89a-fA-F]/;

export function goJsonMarshal(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  if (!marshalRewrites.test(text)) return text;
  // Escaped backslashes are matched first so that a literal "\\ud800" in a string is left alone.
  return text.replace(/\\\\|\\u[dD][89a-fA-F][0-9a-fA-F]{2}|[<>&\u2028\u2029]/g, (m) => {
    if (m === '\\\\') return m;
    // JSON.stringify writes valid surrogate pairs raw, so an escaped surrogate is a lone half.
    if (m.length > 1) return '\\ufffd';
    return `\\u${(m.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
  });
}

/** Go's name for the JSON kind of a value, as json.UnmarshalTypeError prints it. */
export function goJsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

/** `fmt.Sprintf("%v", v)` for decoded JSON values (maps print sorted, as Go's fmt does). */
export function goSprintV(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatGoNumberV(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[${value.map(goSprintV).join(' ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      compareGoStrings(a, b),
    );
    return `map[${entries.map(([k, v]) => `${k}:${goSprintV(v)}`).join(' ')}]`;
  }
  return '<nil>';
}

/**
 * `%v` of a number. JavaScript cannot tell int64 from float64, so integral values print as Go
 * prints an int64 and the rest as Go prints a float64 (`%g`, shortest, exponent from 1e+06).
 */
export function formatGoNumberV(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : '-Inf';
  if (Number.isInteger(n) && Math.abs(n) < 2 ** 63) return BigInt(n).toString();
  const [mantissa = '0', expText = '0'] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

/** A strconv.NumError with Go's text, e.g. `strconv.ParseInt: parsing "x": invalid syntax`. */
export class GoNumError extends Error {
  constructor(fn: 'ParseInt' | 'ParseUint', input: string, reason: 'invalid syntax' | 'value out of range') {
    super(`strconv.${fn}: parsing ${goQuote(input)}: ${reason}`);
    this.name = 'GoNumError';
  }
}

/** `strconv.ParseInt(s, 10, 64)`: optional sign, decimal digits only. */
export function parseGoInt64(s: string): bigint {
  const m = /^([+-]?)([0-9]+)$/.exec(s);
  if (!m) throw new GoNumError('ParseInt', s, 'invalid syntax');
  const value = BigInt(m[1] === '-' ? `-${m[2]}` : (m[2] ?? ''));
  if (value < int64Min || value > int64Max) throw new GoNumError('ParseInt', s, 'value out of range');
  return value;
}

/** `strconv.ParseUint(s, 10, 64)`: decimal digits only, no sign. */
export function parseGoUint64(s: string): bigint {
  if (!/^[0-9]+$/.test(s)) throw new GoNumError('ParseUint', s, 'invalid syntax');
  const value = BigInt(s);
  if (value > uint64Max) throw new GoNumError('ParseUint', s, 'value out of range');
  return value;
}
