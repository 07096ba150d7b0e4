import { createHash, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discardLogger } from '@keel/log';
import { createSecureServer, type SecureServer } from '../secure-server.js';
import { httpsRequest } from '../testing/client.js';
import { servingConfig } from '../testing/config.js';
import { testCA, testLeaf } from '../testing/pki.js';
import type { GeneratedCert } from './x509-gen.js';
import { peerIdentity } from './peer-identity.js';

const DAY_MS = 24 * 3600_000;

function identityServer(clientCA: string | undefined): SecureServer {
  return createSecureServer({
    config: servingConfig(),
    logger: discardLogger,
    ...(clientCA !== undefined ? { clientCA } : {}),
    handler: (req, res) => res.end(JSON.stringify(peerIdentity(req.socket) ?? null)),
  });
}

async function ask(port: number, cert?: GeneratedCert): Promise<unknown> {
  const reply = await httpsRequest(port, {
    rejectUnauthorized: false,
    ...(cert ? { cert: cert.certPem, key: cert.keyPem } : {}),
  });
  return JSON.parse(reply.body);
}

function serialDecimal(pem: string): string {
  return BigInt(`0x${new X509Certificate(pem).serialNumber}`).toString();
}

describe('peerIdentity', () => {
  let clientCA: GeneratedCert;
  let server: SecureServer;
  let port: number;

  beforeAll(async () => {
    clientCA = await testCA('client-ca');
    server = identityServer(clientCA.certPem);
    port = (await server.listen()).port;
  });
  afterAll(() => server.close());

  it('takes the user from the CN and the groups from every O', async () => {
    const cert = await testLeaf(clientCA, {
      commonName: 'alice',
      organizations: ['system:masters', 'dev'],
      usage: 'client',
    });
    const sha = createHash('sha256').update(new X509Certificate(cert.certPem).raw).digest('hex');
    expect(await ask(port, cert)).toEqual({
      user: 'alice',
      groups: ['system:masters', 'dev'],
      credentialId: `X509SHA256=${sha}`,
    });
  });

  it.each([
    ['no certificate', undefined],
    ['an empty CN', { commonName: '', organizations: ['dev'] }],
  ])('is not an identity with %s', async (_name, spec) => {
    const cert = spec ? await testLeaf(clientCA, { ...spec, usage: 'client' }) : undefined;
    expect(await ask(port, cert)).toBeNull();
  });

  it.each([
    ['a certificate from another CA', 'other-ca', /x509: certificate signed by unknown authority$/],
    [
      'an expired certificate',
      'expired',
      /x509: certificate has expired or is not yet valid: current time \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ is after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    ],
    ['a serving-only certificate', 'server-usage', /x509: certificate specifies an incompatible key usage$/],
  ])('reports %s as an error naming the certificate', async (_name, kind, reason) => {
    const issuer = kind === 'other-ca' ? await testCA('other-ca') : clientCA;
    const cert = await testLeaf(issuer, {
      commonName: 'mallory',
      usage: kind === 'server-usage' ? 'server' : 'client',
      ...(kind === 'expired'
        ? { notBefore: new Date(Date.now() - 3 * DAY_MS), notAfter: new Date(Date.now() - DAY_MS) }
        : {}),
    });
    const got = (await ask(port, cert)) as { error: string };
    expect(got.error).toMatch(
      new RegExp(
        `^verifying certificate SN=${serialDecimal(cert.certPem)}, SKID=<none>, AKID=([0-9A-F]{2}:)*[0-9A-F]{2} failed: `,
      ),
    );
    expect(got.error).toMatch(reason);
  });

  it('is undefined when the listener has no client CA (no certificate is requested)', async () => {
    const plain = identityServer(undefined);
    const p = (await plain.listen()).port;
    try {
      const cert = await testLeaf(clientCA, { commonName: 'alice', usage: 'client' });
      expect(await ask(p, cert)).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
