import { TestPKI, type TestCert } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { makeNode, makeNodeInfo, makePod } from '../framework/testing/fixtures.js';
import { defaultExtender, extenderSchema } from '../options/extender-config.js';
import { Extenders } from './extenders.js';
import { ExtenderServer, sentNodeNames } from './testing/extender-server.js';

// Real TLS: the extender serves a certificate from the test's own CA (for 127.0.0.1 and localhost).
let pki: TestPKI;
let serving: { ca: TestCert; server: TestCert };
let clientCA: TestCert;
let client: TestCert;
const servers: ExtenderServer[] = [];
const built: Extenders[] = [];

beforeAll(() => {
  pki = new TestPKI();
  serving = pki.serving();
  clientCA = pki.ca('client-ca');
  client = pki.client(clientCA, 'keel-scheduler');
});
afterAll(() => pki.cleanup());
afterEach(async () => {
  for (const e of built.splice(0)) e.close();
  for (const s of servers.splice(0)) await s.stop();
});

async function httpsServer(requireClientCert = false): Promise<ExtenderServer> {
  const s = await ExtenderServer.start({
    tls: {
      cert: serving.server.certPem,
      key: serving.server.keyPem,
      ...(requireClientCert ? { clientCA: clientCA.certPem } : {}),
    },
  });
  s.on('filter', (body) => ({ NodeNames: sentNodeNames(body) }));
  servers.push(s);
  return s;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

function build(file: z.input<typeof extenderSchema>): Extenders {
  const e = Extenders.fromConfig([defaultExtender(extenderSchema.parse(file))]);
  built.push(e);
  return e;
}

/** The filter call's outcome: the nodes kept, or the error text. */
async function filter(e: Extenders): Promise<string> {
  try {
    const out = await e.filter(makePod('p'), [makeNodeInfo(makeNode('a'))]);
    return out.feasible.map((n) => n.name).join(',');
  } catch (err) {
    return (err as Error).message;
  }
}

describe('extenders over HTTPS', () => {
  it.each([
    ['caData', () => ({ caData: b64(serving.ca.certPem) })],
    ['caFile', () => ({ caFile: serving.ca.certFile })],
    [
      'caData with serverName localhost',
      () => ({ caData: b64(serving.ca.certPem), serverName: 'localhost' }),
    ],
  ])('verifies the server against %s', async (_name, tlsConfig) => {
    const s = await httpsServer();
    expect(
      await filter(
        build({ urlPrefix: s.url, filterVerb: 'filter', nodeCacheCapable: true, tlsConfig: tlsConfig() }),
      ),
    ).toBe('a');
  });

  it('refuses a server its CA did not sign', async () => {
    const s = await httpsServer();
    const other = pki.ca('other-ca');
    expect(
      await filter(
        build({ urlPrefix: s.url, filterVerb: 'filter', tlsConfig: { caData: b64(other.certPem) } }),
      ),
    ).toBe(
      `Post "${s.url}/filter": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('refuses a certificate that does not name serverName', async () => {
    const s = await httpsServer();
    expect(
      await filter(
        build({
          urlPrefix: s.url,
          filterVerb: 'filter',
          tlsConfig: { caData: b64(serving.ca.certPem), serverName: 'wrong.example' },
        }),
      ),
    ).toBe(
      `Post "${s.url}/filter": tls: failed to verify certificate: x509: certificate is valid for localhost, not wrong.example`,
    );
  });

  it('skips verification with enableHTTPS and no CA, as kube does', async () => {
    const s = await httpsServer();
    expect(
      await filter(
        build({ urlPrefix: s.url, filterVerb: 'filter', nodeCacheCapable: true, enableHTTPS: true }),
      ),
    ).toBe('a');
    expect(
      await filter(
        build({
          urlPrefix: s.url,
          filterVerb: 'filter',
          nodeCacheCapable: true,
          tlsConfig: { insecure: true },
        }),
      ),
    ).toBe('a');
  });

  it('verifies with the system roots when nothing is configured', async () => {
    const s = await httpsServer();
    expect(await filter(build({ urlPrefix: s.url, filterVerb: 'filter' }))).toMatch(/unknown authority$/);
  });

  it('presents the client certificate a server asks for', async () => {
    const s = await httpsServer(true);
    const ca = b64(serving.ca.certPem);
    const withCert = build({
      urlPrefix: s.url,
      filterVerb: 'filter',
      nodeCacheCapable: true,
      tlsConfig: { caData: ca, certFile: client.certFile, keyData: b64(client.keyPem) },
    });
    expect(await filter(withCert)).toBe('a');
    expect(s.calls.map((c) => c.clientCN)).toEqual(['keel-scheduler']);
    const without = build({ urlPrefix: s.url, filterVerb: 'filter', tlsConfig: { caData: ca } });
    expect(await filter(without)).toMatch(/^Post "https:\/\/127\.0\.0\.1:\d+\/filter": /);
    expect(s.calls).toHaveLength(1);
  });

  it.each([
    [
      'a CA with insecure',
      () => ({ caData: b64(serving.ca.certPem), insecure: true }),
      'extenders[0]: specifying a root certificates file with the insecure flag is not allowed',
    ],
    [
      'a missing CA file',
      () => ({ caFile: '/nonexistent/ca.crt' }),
      'extenders[0]: open /nonexistent/ca.crt: no such file or directory',
    ],
  ])('refuses %s when the extenders are built', (_name, tlsConfig, want) => {
    expect(() => build({ urlPrefix: 'https://127.0.0.1:1', tlsConfig: tlsConfig() })).toThrow(want);
  });
});
