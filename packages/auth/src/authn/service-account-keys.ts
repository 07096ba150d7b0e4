import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ConfigError, fileErrorText } from '../config-error.js';

const FLAG = '--service-account-key-file';
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;

function publicKeyOf(block: string): KeyObject | undefined {
  try {
    return createPublicKey(createPrivateKey(block));
  } catch {
    // not an (unencrypted) private key; try the public forms below
  }
  try {
    // PUBLIC KEY, RSA PUBLIC KEY and CERTIFICATE blocks.
    return createPublicKey(block);
  } catch {
    return undefined;
  }
}

/**
 * The RSA and ECDSA public keys in a PEM text, as kube's keyutil.ParsePublicKeysPEM reads them:
 * public keys, certificates and private keys (whose public half is used) in any number; other
 * blocks are tolerated. Throws when no usable key is found.
 */
export function parsePublicKeysPem(pem: string): KeyObject[] {
  const keys: KeyObject[] = [];
  for (const m of pem.matchAll(PEM_BLOCK)) {
    const key = publicKeyOf(m[0]);
    if (key && (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'ec')) keys.push(key);
  }
  if (keys.length === 0) throw new Error('data does not contain any valid RSA or ECDSA public keys');
  return keys;
}

/** Reads every --service-account-key-file; a file that cannot be read or holds no key is a ConfigError. */
export function loadServiceAccountKeys(files: readonly string[]): KeyObject[] {
  return files.flatMap((file) => {
    let pem: string;
    try {
      pem = readFileSync(file, 'utf8');
    } catch (err) {
      throw new ConfigError(`${FLAG}: ${fileErrorText(err, file)}`);
    }
    try {
      return parsePublicKeysPem(pem);
    } catch (err) {
      throw new ConfigError(`${FLAG}: error reading public key file ${file}: ${(err as Error).message}`);
    }
  });
}
