/**
 * Just enough DER to read a certificate's key identifiers, which node:crypto does not expose; they
 * appear in kube's x509 error messages (`SKID=AB:CD…, AKID=…`).
 */
interface Tlv {
  readonly tag: number;
  readonly start: number; // first content byte
  readonly end: number; // one past the last content byte
}

function readTlv(buf: Uint8Array, at: number): Tlv | undefined {
  if (at + 2 > buf.length) return undefined;
  const tag = buf[at] ?? 0;
  let len = buf[at + 1] ?? 0;
  let start = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > buf.length) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[start + i] ?? 0);
    start += n;
  }
  const end = start + len;
  return end <= buf.length ? { tag, start, end } : undefined;
}

function children(buf: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.start; at < parent.end;) {
    const t = readTlv(buf, at);
    if (!t) break;
    out.push(t);
    at = t.end;
  }
  return out;
}

const OID_SKID = '551d0e';
const OID_AKID = '551d23';

function hex(buf: Uint8Array, t: Tlv): string {
  return Buffer.from(buf.subarray(t.start, t.end)).toString('hex');
}

/** Subject and authority key identifiers of a DER certificate, as raw bytes (empty when absent). */
export function keyIdentifiers(der: Uint8Array): { subject: Uint8Array; authority: Uint8Array } {
  const none: { subject: Uint8Array; authority: Uint8Array } = {
    subject: new Uint8Array(),
    authority: new Uint8Array(),
  };
  const cert = readTlv(der, 0);
  const tbs = cert && children(der, cert)[0];
  const extsWrapper = tbs && children(der, tbs).find((t) => t.tag === 0xa3);
  const exts = extsWrapper && children(der, extsWrapper)[0];
  if (!exts) return none;
  const result = { ...none };
  for (const ext of children(der, exts)) {
    const parts = children(der, ext);
    const oid = parts[0];
    const value = parts[parts.length - 1];
    if (!oid || !value || oid.tag !== 0x06 || value.tag !== 0x04) continue;
    const inner = readTlv(der, value.start);
    if (!inner) continue;
    if (hex(der, oid) === OID_SKID && inner.tag === 0x04) {
      result.subject = der.subarray(inner.start, inner.end);
    } else if (hex(der, oid) === OID_AKID && inner.tag === 0x30) {
      const keyId = children(der, inner).find((t) => t.tag === 0x80);
      if (keyId) result.authority = der.subarray(keyId.start, keyId.end);
    }
  }
  return result;
}
