import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../config-error.js';
import { TestPKI } from '@keel/testing';
import { loadServiceAccountKeys, parsePublicKeysPem } from './service-account-keys.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const ed = generateKeyPairSync('ed25519');
const pem = (k: KeyObject, type: 'spki' | 'pkcs1' | 'pkcs8' | 'sec1') =>
  k.export({ format: 'pem', type } as never) as unknown as string;
const spkiOf = (k: KeyObject) => k.export({ format: 'der', type: 'spki' }).toString('base64');

describe('parsePublicKeysPem', () => {
  const cert = pki.leaf(pki.ca('sa-ca'), { cn: 'sa-signer' });
  it.each<[string, () => string, KeyObject[]]>([
    ['RSA PUBLIC KEY (PKCS#1)', () => pem(rsa.publicKey, 'pkcs1'), [rsa.publicKey]],
    ['PUBLIC KEY (RSA)', () => pem(rsa.publicKey, 'spki'), [rsa.publicKey]],
    ['PUBLIC KEY (EC)', () => pem(ec.publicKey, 'spki'), [ec.publicKey]],
    ['RSA PRIVATE KEY: the public half', () => pem(rsa.privateKey, 'pkcs1'), [rsa.publicKey]],
    ['PRIVATE KEY (PKCS#8 EC)', () => pem(ec.privateKey, 'pkcs8'), [ec.publicKey]],
    ['EC PRIVATE KEY', () => pem(ec.privateKey, 'sec1'), [ec.publicKey]],
    [
      'several keys and junk blocks',
      () =>
        `${pem(rsa.publicKey, 'spki')}-----BEGIN FOO-----\nAAAA\n-----END FOO-----\n${pem(ec.publicKey, 'spki')}`,
      [rsa.publicKey, ec.publicKey],
    ],
    ['ed25519 keys are skipped', () => pem(ed.publicKey, 'spki') + pem(ec.publicKey, 'spki'), [ec.publicKey]],
  ])('%s', (_name, text, expected) => {
    expect(parsePublicKeysPem(text()).map(spkiOf)).toEqual(expected.map(spkiOf));
  });

  it('takes the public key of a certificate', () => {
    const keys = parsePublicKeysPem(cert.certPem);
    expect(keys.map(spkiOf)).toEqual(parsePublicKeysPem(cert.keyPem).map(spkiOf));
  });

  it.each([
    ['nothing', ''],
    ['only an ed25519 key', pem(ed.publicKey, 'spki')],
    ['not PEM', 'hello'],
  ])('%s: no keys', (_name, text) => {
    expect(() => parsePublicKeysPem(text)).toThrow(
      'data does not contain any valid RSA or ECDSA public keys',
    );
  });
});

describe('loadServiceAccountKeys', () => {
  it('reads every file, in order', () => {
    const a = pki.file('a.pub', pem(rsa.publicKey, 'spki'));
    const b = pki.file('b.key', pem(ec.privateKey, 'pkcs8'));
    expect(loadServiceAccountKeys([a, b]).map(spkiOf)).toEqual([rsa.publicKey, ec.publicKey].map(spkiOf));
  });

  it.each([
    [
      'a missing file',
      () => join(pki.dir, 'none.pub'),
      (p: string) => `--service-account-key-file: open ${p}: no such file or directory`,
    ],
    [
      'a file without keys',
      () => pki.file('empty.pub', 'nothing here\n'),
      (p: string) =>
        `--service-account-key-file: error reading public key file ${p}: data does not contain any valid RSA or ECDSA public keys`,
    ],
  ])('%s is a ConfigError', (_name, make, message) => {
    const path = make();
    expect(() => loadServiceAccountKeys([path])).toThrow(new ConfigError(message(path)));
  });
});
