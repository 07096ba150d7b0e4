import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discardLogger } from '@keel/log';
import type { NamedCertKey } from '@keel/flags';
import { createSecureServer, type SecureServer } from '../secure-server.js';
import { handshake } from '../testing/client.js';
import { servingConfig } from '../testing/config.js';
import { tempDir, testCA, testLeaf, writePair } from '../testing/pki.js';
import { readCertKeyFiles } from './cert-key.js';
import { buildNameMap, extractNames, loadSniCertificates, lookupName } from './sni.js';

describe('buildNameMap + lookupName (kube precedence)', () => {
  const entries = [
    { value: 'exact', explicitNames: [], extractedNames: ['a.example.com', 'dup.example.com'] },
    { value: 'wild', explicitNames: [], extractedNames: ['*.example.com'] },
    { value: 'dup-later', explicitNames: [], extractedNames: ['dup.example.com'] },
    {
      value: 'explicit',
      explicitNames: ['b.example.com', 'Upper.Example.com'],
      extractedNames: ['never.example.com'],
    },
    { value: 'explicit-wild', explicitNames: ['*.a.example.com', 'a.example.com'], extractedNames: [] },
  ];
  const map = buildNameMap(entries);

  it.each([
    ['a.example.com', 'explicit-wild', 'explicit patterns beat extracted names'],
    ['x.a.example.com', 'explicit-wild', 'a wildcard matches one label'],
    ['b.example.com', 'explicit', 'explicit name'],
    ['upper.example.com', 'explicit', 'patterns are case-insensitive'],
    ['B.EXAMPLE.COM.', 'explicit', 'server name case and trailing dot are ignored'],
    ['never.example.com', 'wild', 'a pair with patterns does not register its own names'],
    ['dup.example.com', 'exact', 'an earlier flag beats a later one'],
    ['c.example.com', 'wild', 'wildcard when nothing exact matches'],
    ['x.c.example.com', undefined, 'a wildcard never spans two labels'],
    ['example.com', undefined, 'a wildcard needs a label to replace'],
    ['other.test', undefined, 'no match: the default certificate'],
    ['', undefined, 'no server name'],
  ])('%s → %s (%s)', (name, want, _why) => {
    expect(lookupName(map, name)).toBe(want);
  });
});

describe('extractNames', () => {
  it.each([
    [
      'a DNS CN and the DNS SANs',
      'a.example.com',
      ['b.example.com', '10.0.0.1'],
      ['a.example.com', 'b.example.com'],
    ],
    ['a wildcard CN', '*.example.com', [], ['*.example.com']],
    ['a bare * CN', '*', [], ['*']],
    ['no IP CN, no IP SANs', '10.0.0.1', ['10.0.0.1'], []],
    ['no CN that is not a DNS name', 'My Server', ['ok.example.com'], ['ok.example.com']],
  ])('takes %s', async (_name, commonName, hosts, want) => {
    const ca = await testCA();
    const leaf = await testLeaf(ca, { commonName, hosts });
    const dir = tempDir();
    const files = writePair(dir, 'x', leaf);
    expect(extractNames(readCertKeyFiles(files.certFile, files.keyFile))).toEqual(want);
  });
});

describe('--tls-sni-cert-key over real TLS', () => {
  let server: SecureServer;
  let port: number;

  beforeAll(async () => {
    const dir = tempDir();
    const ca = await testCA();
    const pair = async (
      name: string,
      commonName: string,
      hosts: string[],
      names: string[] = [],
    ): Promise<NamedCertKey> => ({
      ...writePair(dir, name, await testLeaf(ca, { commonName, hosts })),
      names,
    });
    const sniCertKeys = [
      await pair('exact', 'exact', ['www.a.example.com', 'a.example.com']),
      await pair('wild', 'wild', ['*.example.com']),
      await pair('explicit', 'explicit', ['ignored.example.com'], ['a.example.com']),
      await pair('ip', 'ip', [], ['127.0.0.1']),
    ];
    server = createSecureServer({
      config: servingConfig({ sniCertKeys }),
      handler: (_req, res) => res.end(),
      logger: discardLogger,
      hosts: ['default.example.com'],
    });
    port = (await server.listen()).port;
  });
  afterAll(() => server.close());

  it.each([
    ['www.a.example.com', 'exact'],
    ['WWW.A.example.com', 'exact'],
    ['b.example.com', 'wild'],
    ['a.example.com', 'explicit'],
    ['ignored.example.com', 'wild'],
    ['x.y.example.com', 'default'],
    ['unknown.test', 'default'],
    [undefined, 'default'],
  ])('servername %s gets the %s certificate', async (servername, want) => {
    const res = await handshake(port, servername === undefined ? {} : { servername });
    expect(res.ok).toBe(true);
    const cn = res.ok ? res.subjectCN : '';
    expect(want === 'default' ? cn.replace(/@\d+$/, '') : cn).toBe(
      want === 'default' ? 'default.example.com' : want,
    );
  });
});

describe('loadSniCertificates errors', () => {
  it.each([
    [
      'a missing certificate file',
      'missing',
      (d: string) => `open ${join(d, 'absent.crt')}: no such file or directory`,
    ],
    ['a key that does not match', 'mismatch', () => 'tls: private key does not match public key'],
    [
      'a certificate file without PEM data',
      'garbage',
      () => 'tls: failed to find any PEM data in certificate input',
    ],
    ['a key file without PEM data', 'nokey', () => 'tls: failed to find any PEM data in key input'],
  ])('reports %s as one line naming the flag and files', async (_name, kind, reason) => {
    const dir = tempDir();
    const ca = await testCA();
    const files = writePair(dir, kind, await testLeaf(ca, { commonName: 'x' }));
    if (kind === 'missing') files.certFile = join(dir, 'absent.crt');
    if (kind === 'mismatch') writeFileSync(files.keyFile, (await testLeaf(ca, { commonName: 'y' })).keyPem);
    if (kind === 'garbage') writeFileSync(files.certFile, 'not a certificate\n');
    if (kind === 'nokey') writeFileSync(files.keyFile, '');
    expect(() => loadSniCertificates([{ ...files, names: [] }])).toThrow(
      `--tls-sni-cert-key "${files.certFile},${files.keyFile}": failed to load SNI cert and key: ${reason(dir)}`,
    );
  });
});
