import { isProtobufValue } from '../media/encoding-backend.js';
import type { KeyCipher } from './providers.js';

/** What a stored value became when read: its plain text, and whether it should be rewritten. */
export interface Opened {
  readonly text: string;
  /** Written by a provider or key other than the first: a write would re-encrypt it (rotation). */
  readonly stale: boolean;
}

/** Protobuf values are latin1 strings of their bytes (media/encoding-backend.ts); JSON is UTF-8. */
const textEncoding = (text: string): BufferEncoding => (isProtobufValue(text) ? 'latin1' : 'utf8');
const bytesEncoding = (b: Buffer): BufferEncoding =>
  b.length >= 4 && b[0] === 0x6b && b[1] === 0x38 && b[2] === 0x73 && b[3] === 0 ? 'latin1' : 'utf8';

/**
 * kube's prefix transformer over one resource's provider list: the first provider's first key
 * writes; a read picks the key whose prefix the value carries. Values stay strings in the store,
 * so the sealed bytes follow the prefix in base64 (upstream writes them raw into etcd).
 */
export class ValueTransformer {
  constructor(
    /** In configuration order; `identity` is an entry without a cipher. */
    private readonly providers: readonly (KeyCipher | 'identity')[],
  ) {}

  seal(text: string, context: string): string {
    const first = this.providers[0];
    if (first === undefined || first === 'identity') return text;
    return first.prefix + first.seal(Buffer.from(text, textEncoding(text)), context).toString('base64');
  }

  open(stored: string, context: string): Opened {
    for (const [i, p] of this.providers.entries()) {
      if (p === 'identity' || !stored.startsWith(p.prefix)) continue;
      const sealed = Buffer.from(stored.slice(p.prefix.length), 'base64');
      let plain: Buffer;
      try {
        plain = p.open(sealed, context);
      } catch (err) {
        throw new Error(`${p.prefix.slice(0, -1)}: ${(err as Error).message}`, { cause: err });
      }
      return { text: plain.toString(bytesEncoding(plain)), stale: i !== 0 };
    }
    // Unencrypted data (written before encryption was configured) is readable only through identity.
    const identity = this.providers.indexOf('identity');
    if (identity === -1 || stored.startsWith('k8s:enc:')) throw new Error('no matching prefix found');
    return { text: stored, stale: identity !== 0 };
  }
}
