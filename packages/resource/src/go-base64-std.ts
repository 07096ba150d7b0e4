/**
 * Go's base64.StdEncoding.Decode, for how encoding/json reads a []byte: padded standard
 * alphabet, `\r` and `\n` skipped, and the error text `illegal base64 data at input byte N`.
 * (@keel/apimachinery has only the raw URL variant, unexported.)
 */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const decodeMap = new Map([...alphabet].map((c, i) => [c.charCodeAt(0), i]));
const pad = 0x3d;
const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

export class Base64Error extends Error {
  constructor(offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
    this.name = 'Base64Error';
  }
}

/** Decodes one quantum starting at `si`; returns the next index and the bytes (decodeQuantum). */
function quantum(src: Buffer, start: number, out: number[]): { si: number; done: boolean } {
  const buf = [0, 0, 0, 0];
  let si = start;
  let len = 4;
  for (let j = 0; j < 4; j++) {
    if (si === src.length) {
      if (j === 0) return { si, done: true };
      throw new Base64Error(si - j);
    }
    const b = src[si++] ?? 0;
    const v = decodeMap.get(b);
    if (v !== undefined) {
      buf[j] = v;
      continue;
    }
    if (isNewline(b)) {
      j--;
      continue;
    }
    if (b !== pad || j < 2) throw new Base64Error(si - 1);
    if (j === 2) {
      while (si < src.length && isNewline(src[si])) si++;
      if (si === src.length) throw new Base64Error(src.length);
      if (src[si] !== pad) throw new Base64Error(si - 1);
      si++;
    }
    while (si < src.length && isNewline(src[si])) si++;
    if (si < src.length) throw new Base64Error(si);
    len = j;
    break;
  }
  const [a = 0, b = 0, c = 0, d = 0] = buf;
  const n = (a << 18) | (b << 12) | (c << 6) | d;
  out.push((n >> 16) & 0xff);
  if (len > 2) out.push((n >> 8) & 0xff);
  if (len > 3) out.push(n & 0xff);
  return { si, done: len < 4 };
}

/** Throws Base64Error with Go's offset. */
export function goBase64StdDecode(s: string): Buffer {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const r = quantum(src, si, out);
    si = r.si;
    if (r.done) return Buffer.from(out);
  }
}
