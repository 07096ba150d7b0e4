import { createHash, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, describe, expect, it } from 'vitest';
import { TestPKI } from '@keel/testing';
import { ConfigError } from '../config-error.js';
import { runAuthentication } from '../testing/run-authentication.js';
import { buildServiceAccountIssuer } from './build-issuer.js';
import { boundTokenClaims } from './service-account-signer.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

const pem = (k: { export(o: object): string | Buffer }, type: 'pkcs8' | 'spki') =>
  k.export({ type, format: 'pem' }).toString();
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
const files = {
  rsaKey: pki.file('rsa.key', pem(rsa.privateKey, 'pkcs8')),
  rsaPub: pki.file('rsa.pub', pem(rsa.publicKey, 'spki')),
  ecKey: pki.file('ec.key', pem(ec384.privateKey, 'pkcs8')),
  ecPub: pki.file('ec.pub', pem(ec384.publicKey, 'spki')),
  junk: pki.file('junk.key', 'not a key\n'),
};

function build(argv: string[]) {
  const { config, errors } = runAuthentication(argv);
  expect(errors).toEqual([]);
  return buildServiceAccountIssuer(config, { externalHost: '10.0.0.1', port: 6443 });
}

describe('buildServiceAccountIssuer', () => {
  it('has nothing to do without an issuer', () => {
    expect(build([])).toEqual({ issuer: undefined, metadata: undefined, warnings: [] });
  });

  it('signs ES384 with an ECDSA P-384 key; the kid is the SHA-256 of the public key', () => {
    const built = build([
      '--service-account-issuer=https://a.example',
      '--service-account-issuer=https://b.example',
      `--service-account-key-file=${files.ecPub}`,
      `--service-account-signing-key-file=${files.ecKey}`,
    ]);
    const issuer = built.issuer!;
    const now = new Date();
    const token = issuer.generateToken(
      boundTokenClaims({
        namespace: 'ns',
        serviceAccount: { name: 'sa', uid: 'u1' },
        node: { name: 'n1', uid: '' },
        audiences: ['x'],
        expirationSeconds: 600,
        warnAfterSeconds: 0,
        now,
      }),
    );
    const der = createPublicKey(ec384.privateKey).export({ type: 'spki', format: 'der' });
    const kid = createHash('sha256').update(der).digest('base64url');
    const decoded = jwt.verify(token, ec384.publicKey, { complete: true, algorithms: ['ES384'] });
    expect(decoded.header).toEqual({ alg: 'ES384', kid });
    expect(decoded.payload).toMatchObject({
      iss: 'https://a.example',
      aud: ['x'],
      'kubernetes.io': { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'u1' }, node: { name: 'n1' } },
    });
    expect(JSON.parse(built.metadata!.configJSON)).toMatchObject({
      issuer: 'https://a.example',
      jwks_uri: 'https://10.0.0.1:6443/openid/v1/jwks',
      id_token_signing_alg_values_supported: ['ES384'],
    });
  });

  it('refuses a signing key file it cannot use, in one line', () => {
    const args = ['--service-account-issuer=https://a.example', `--service-account-key-file=${files.rsaPub}`];
    expect(() => build([...args, `--service-account-signing-key-file=${files.junk}`])).toThrow(
      new ConfigError(
        'failed to parse service-account-issuer-key-file: data does not contain a valid RSA or ECDSA private key',
      ),
    );
    const missing = join(pki.dir, 'missing.key');
    expect(() => build([...args, `--service-account-signing-key-file=${missing}`])).toThrow(
      new ConfigError(
        `failed to parse service-account-issuer-key-file: open ${missing}: no such file or directory`,
      ),
    );
    expect(build([...args, `--service-account-signing-key-file=${files.rsaKey}`]).issuer?.algorithm).toBe(
      'RS256',
    );
  });

  it('warns when the lifetime cap undercuts token extension, as upstream', () => {
    const built = build([
      '--service-account-issuer=https://a.example',
      `--service-account-key-file=${files.rsaPub}`,
      '--service-account-max-token-expiration=1h',
    ]);
    expect(built.warnings).toEqual([
      'service-account-extend-token-expiration is true, in order to correctly trigger safe transition logic, service-account-max-token-expiration must be set longer than 3607 seconds (currently 1h0m0s)',
      'service-account-extend-token-expiration is true, enabling tokens valid up to 31536000 seconds, which is longer than service-account-max-token-expiration set to 1h0m0s seconds',
    ]);
  });

  it('leaves the discovery documents out for an issuer that is not an https URL', () => {
    const built = build([
      '--service-account-issuer=http://a.example',
      `--service-account-key-file=${files.rsaPub}`,
    ]);
    expect(built.metadata).toBeUndefined();
    expect(built.warnings).toEqual([
      'Could not construct pre-rendered responses for ServiceAccountIssuerDiscovery endpoints. Endpoints will not be enabled. Error: issuer URL must use https scheme, got: http://a.example',
    ]);
  });
});
