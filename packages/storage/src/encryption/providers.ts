import { createCipheriv, createDecipheriv, randomBytes, type CipherGCMTypes } from 'node:crypto';
import nacl from 'tweetnacl';

/**
 * One key of one provider: the prefix that marks what it wrote (kube's `k8s:enc:<provider>:v1:<key
 * name>:`) and how it seals and opens a value. `context` is the storage key; AES-GCM authenticates
 * it, so a value copied under another key does not decrypt, as upstream's authenticated data.
 */
export interface KeyCipher {
  readonly prefix: string;
  seal(plain: Buffer, context: string): Buffer;
  open(sealed: Buffer, context: string): Buffer;
}

export type ProviderKind = 'aescbc' | 'aesgcm' | 'secretbox';

/** The key lengths each provider takes, in bytes. */
export const KEY_LENGTHS: Readonly<Record<ProviderKind, readonly number[]>> = {
  aescbc: [16, 24, 32],
  aesgcm: [16, 24, 32],
  secretbox: [32],
};

const CBC_IV = 16;
const GCM_NONCE = 12;
const GCM_TAG = 16;

function aesCbc(key: Buffer): Omit<KeyCipher, 'prefix'> {
  const algorithm = `aes-${key.length * 8}-cbc`;
  return {
    seal(plain) {
      const iv = randomBytes(CBC_IV);
      const c = createCipheriv(algorithm, key, iv);
      return Buffer.concat([iv, c.update(plain), c.final()]);
    },
    open(sealed) {
      if (sealed.length < CBC_IV * 2) throw new Error('the stored data was shorter than the required size');
      const d = createDecipheriv(algorithm, key, sealed.subarray(0, CBC_IV));
      return Buffer.concat([d.update(sealed.subarray(CBC_IV)), d.final()]);
    },
  };
}

function aesGcm(key: Buffer): Omit<KeyCipher, 'prefix'> {
  const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
  return {
    seal(plain, context) {
      const nonce = randomBytes(GCM_NONCE);
      const c = createCipheriv(algorithm, key, nonce);
      c.setAAD(Buffer.from(context));
      const body = Buffer.concat([c.update(plain), c.final()]);
      return Buffer.concat([nonce, body, c.getAuthTag()]);
    },
    open(sealed, context) {
      if (sealed.length < GCM_NONCE + GCM_TAG)
        throw new Error('the stored data was shorter than the required size');
      const d = createDecipheriv(algorithm, key, sealed.subarray(0, GCM_NONCE));
      d.setAAD(Buffer.from(context));
      d.setAuthTag(sealed.subarray(sealed.length - GCM_TAG));
      return Buffer.concat([d.update(sealed.subarray(GCM_NONCE, sealed.length - GCM_TAG)), d.final()]);
    },
  };
}

// XSalsa20-Poly1305 is not in Node's crypto; tweetnacl is the audited, dependency-free port of NaCl.
function secretBox(key: Buffer): Omit<KeyCipher, 'prefix'> {
  const k = new Uint8Array(key);
  return {
    seal(plain) {
      const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
      return Buffer.concat([nonce, nacl.secretbox(new Uint8Array(plain), nonce, k)]);
    },
    open(sealed) {
      const n = nacl.secretbox.nonceLength;
      if (sealed.length < n) throw new Error('the stored data was shorter than the required size');
      const out = nacl.secretbox.open(
        new Uint8Array(sealed.subarray(n)),
        new Uint8Array(sealed.subarray(0, n)),
        k,
      );
      if (out === null) throw new Error('output array was not large enough for encryption');
      return Buffer.from(out);
    },
  };
}

export function keyCipher(kind: ProviderKind, name: string, key: Buffer): KeyCipher {
  const make = kind === 'aescbc' ? aesCbc : kind === 'aesgcm' ? aesGcm : secretBox;
  return { prefix: `k8s:enc:${kind}:v1:${name}:`, ...make(key) };
}
