/**
 * Go's base64.RawURLEncoding.DecodeString, for its error text: `illegal base64 data at input
 * byte N` (byte offsets of the UTF-8 input). Like Go it skips `\r` and `\n` and does not insist
 * that unused trailing bits are zero.
 */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const decodeMap = new Map([...alphabet].map((c, i) => [c.charCodeAt(0), i]));

export function goBase64UrlDecode(s: string): Buffer {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  let quantum: number[] = [];
  for (let i = 0; i < src.length; i++) {
    const b = src[i] ?? 0;
    if (b === 0x0a || b === 0x0d) continue;
    const v = decodeMap.get(b);
    if (v === undefined) throw new Error(`illegal base64 data at input byte ${i}`);
    quantum.push(v);
    if (quantum.length === 4) {
      flush(quantum, out);
      quantum = [];
    }
  }
  // Go reports a dangling sixth-bit group at len-1, even past skipped newlines.
  if (quantum.length === 1) throw new Error(`illegal base64 data at input byte ${src.length - 1}`);
  if (quantum.length > 0) flush(quantum, out);
  return Buffer.from(out);
}

function flush(q: number[], out: number[]): void {
  const [a = 0, b = 0, c = 0, d = 0] = q;
  const n = (a << 18) | (b << 12) | (c << 6) | d;
  out.push((n >> 16) & 0xff);
  if (q.length > 2) out.push((n >> 8) & 0xff);
  if (q.length > 3) out.push(n & 0xff);
}
