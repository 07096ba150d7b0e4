/**
 * Go's `strconv.Quote` (what `%q` prints), so the `warn:` line of the probe body matches the real
 * server byte for byte. Printable means Go's `unicode.IsPrint`: letters, marks, numbers,
 * punctuation, symbols and the ASCII space.
 */
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

export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const escaped = shortEscapes[ch];
    if (escaped !== undefined) out += escaped;
    else if (printable.test(ch)) out += ch;
    else out += hexEscape(ch.codePointAt(0) ?? 0);
  }
  return out + '"';
}

function hexEscape(cp: number): string {
  // A lone surrogate is not a valid rune; Go substitutes U+FFFD for invalid runes.
  if (cp >= 0xd800 && cp <= 0xdfff) return '\\ufffd';
  if (cp < 0x80) return `\\x${cp.toString(16).padStart(2, '0')}`;
  if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
  return `\\U${cp.toString(16).padStart(8, '0')}`;
}

/** Go compares strings by their UTF-8 bytes, which is code-point order, not UTF-16 order. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
