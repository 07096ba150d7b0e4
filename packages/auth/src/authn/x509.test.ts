import { createHash, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestPKI, type TestCert } from '@keel/testing';
import { startTlsServer, tlsRequest, type TlsServer } from '../testing/tls.js';
import { certificateIdentifier, parseCertificates } from './cert-chain.js';
import { newAuthenticationContext, type Authenticator } from './types.js';
import { X509Authenticator } from './x509.js';

const pki = new TestPKI();
let servingCA: TestCert;
let clientCA: TestCert;
let proxyCA: TestCert;
let otherCA: TestCert;
let server: TlsServer;
let current: Authenticator;

beforeAll(async () => {
  const serving = pki.serving();
  servingCA = serving.ca;
  clientCA = pki.ca('client-ca');
  proxyCA = pki.ca('front-proxy-ca');
  otherCA = pki.ca('other-ca');
  // The listener trusts both client bundles, as the API server's does.
  server = await startTlsServer(serving.server, clientCA.certPem + proxyCA.certPem, async (req) => {
    const ctx = newAuthenticationContext();
    return { result: (await current.authenticate(req, ctx)) ?? null, ctx };
  });
  current = new X509Authenticator(parseCertificates(clientCA.certPem));
});

afterAll(async () => {
  await server.close();
  pki.cleanup();
});

const ask = (cert?: TestCert) => tlsRequest(server.port, { servingCA, ...(cert ? { cert } : {}) });
const credentialId = (c: TestCert) =>
  `X509SHA256=${createHash('sha256').update(new X509Certificate(c.certPem).raw).digest('hex')}`;
const id = (c: TestCert) => certificateIdentifier(new X509Certificate(c.certPem));

describe('X509Authenticator over TLS', () => {
  it('maps CN to the user and O to the groups, with the credential id', async () => {
    const cert = pki.leaf(clientCA, { cn: 'bob', orgs: ['dev', 'ops'] });
    expect(await ask(cert)).toEqual({
      result: {
        user: {
          name: 'bob',
          uid: '',
          groups: ['dev', 'ops'],
          extra: { 'authentication.kubernetes.io/credential-id': [credentialId(cert)] },
        },
      },
      ctx: { warnings: [], consumedHeaders: [] },
    });
  });

  it('accepts a chain through an intermediate the client sends', async () => {
    const mid = pki.ca('client-intermediate', clientCA);
    const leaf = pki.leaf(mid, { cn: 'carol' });
    const res = (await ask({ ...leaf, certPem: leaf.certPem + mid.certPem })) as {
      result: { user: { name: string } };
    };
    expect(res.result.user.name).toBe('carol');
  });

  it.each<[string, () => TestCert | undefined, (c: TestCert) => unknown]>([
    ['no certificate: not this method', () => undefined, () => null],
    ['no CommonName: not this method', () => pki.leaf(clientCA, { cn: '', orgs: ['dev'] }), () => null],
    [
      'signed by the front-proxy CA only (the handshake passes, this bundle does not)',
      () => pki.leaf(proxyCA, { cn: 'front-proxy' }),
      (c) => ({
        error: `verifying certificate ${id(c)} failed: x509: certificate signed by unknown authority`,
      }),
    ],
    [
      'signed by an unknown CA',
      () => pki.leaf(otherCA, { cn: 'mallory' }),
      (c) => ({
        error: `verifying certificate ${id(c)} failed: x509: certificate signed by unknown authority`,
      }),
    ],
    [
      'a server-only certificate',
      () => pki.leaf(clientCA, { cn: 'web', usage: 'server' }),
      (c) => ({
        error: `verifying certificate ${id(c)} failed: x509: certificate specifies an incompatible key usage`,
      }),
    ],
  ])('%s', async (_name, make, expected) => {
    const cert = make();
    const res = (await ask(cert)) as { result: unknown };
    expect(res.result).toEqual(cert ? expected(cert) : expected(undefined as unknown as TestCert));
  });

  it('rejects an expired certificate', async () => {
    const cert = pki.leaf(clientCA, { cn: 'old', days: -1 });
    const res = (await ask(cert)) as { result: { error: string } };
    expect(res.result.error).toMatch(
      new RegExp(
        `^verifying certificate ${id(cert)} failed: x509: certificate has expired or is not yet valid: ` +
          'current time \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ is after \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$',
      ),
    );
  });

  it('checks validity against its own clock too', async () => {
    const cert = pki.leaf(clientCA, { cn: 'bob' });
    const later = new Date(Date.now() + 10 * 24 * 3600_000);
    current = new X509Authenticator(parseCertificates(clientCA.certPem), () => later);
    try {
      const res = (await ask(cert)) as { result: { error: string } };
      const notAfter = new Date(new X509Certificate(cert.certPem).validTo)
        .toISOString()
        .replace('.000Z', 'Z');
      expect(res.result.error).toBe(
        `verifying certificate ${id(cert)} failed: x509: certificate has expired or is not yet valid: ` +
          `current time ${later.toISOString().replace(/\.\d{3}Z$/, 'Z')} is after ${notAfter}`,
      );
    } finally {
      current = new X509Authenticator(parseCertificates(clientCA.certPem));
    }
  });

  it('is not this method on a plain (non-TLS) request', async () => {
    const a = new X509Authenticator(parseCertificates(clientCA.certPem));
    expect(await a.authenticate({ headers: {}, rawHeaders: [] })).toBeUndefined();
  });
});

describe('certificateIdentifier', () => {
  it('gives the decimal serial and colon-hex key identifiers', () => {
    const cert = new X509Certificate(pki.leaf(clientCA, { cn: 'x' }).certPem);
    expect(certificateIdentifier(cert)).toMatch(
      /^SN=\d+, SKID=([0-9A-F]{2}:){19}[0-9A-F]{2}, AKID=([0-9A-F]{2}:){19}[0-9A-F]{2}$/,
    );
    expect(certificateIdentifier(cert)).toContain(`SN=${BigInt(`0x${cert.serialNumber}`).toString()},`);
  });
});
