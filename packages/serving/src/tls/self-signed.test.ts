import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { handshake } from '../testing/client.js';
import { recordingLogger } from '../testing/logger.js';
import { tempDir, testCA, testLeaf, writePair } from '../testing/pki.js';
import { splitCertificates } from './cert-key.js';
import { ensureSelfSignedCert, pairFileNames, selfSignedHosts } from './self-signed.js';

const HOSTS = ['10.0.0.5', 'localhost', '127.0.0.1', '::1', 'keel.example.com'];
const YEAR_MS = 365 * 24 * 3600_000;

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function serve(certPem: string, keyPem: string): Promise<number> {
  const server = createServer({ cert: certPem, key: keyPem }, (s) => s.end());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

describe('ensureSelfSignedCert', () => {
  it('generates a CA and a serving certificate covering every host, in memory when certDir is empty', async () => {
    const start = performance.now();
    const got = await ensureSelfSignedCert({ certDir: '', hosts: HOSTS });
    const elapsed = performance.now() - start;
    expect(got.generated).toBe(true);
    expect(got.certFile).toBeUndefined();
    const [leafPem, caPem, ...rest] = splitCertificates(got.certPem);
    expect(rest).toEqual([]);
    expect(caPem).toBe(got.caPem);
    const leaf = new X509Certificate(leafPem!);
    const ca = new X509Certificate(got.caPem);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subject).toMatch(/^CN=10\.0\.0\.5@\d+$/);
    expect(ca.subject).toMatch(/^CN=10\.0\.0\.5-ca@\d+$/);
    expect(leaf.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(leaf.subjectAltName).toBe(
      'IP Address:10.0.0.5, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:keel.example.com',
    );
    // Generous bound: it typically takes ~20 ms; this only catches an accidental switch to RSA or the like.
    expect(elapsed).toBeLessThan(1000);
  });

  it('writes the pair and the CA into a new certDir with safe modes', async () => {
    const dir = join(tempDir(), 'nested', 'certs');
    const log = recordingLogger();
    const got = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS, logger: log });
    const umask = process.umask();
    expect(got).toMatchObject({
      certFile: join(dir, 'apiserver.crt'),
      keyFile: join(dir, 'apiserver.key'),
      caFile: join(dir, 'ca.crt'),
    });
    expect(mode(dir)).toBe(0o755 & ~umask);
    expect(mode(join(dir, 'apiserver.key'))).toBe(0o600);
    expect(readFileSync(join(dir, 'apiserver.crt'), 'utf8')).toBe(got.certPem);
    expect(readFileSync(join(dir, 'apiserver.key'), 'utf8')).toBe(got.keyPem);
    expect(readFileSync(join(dir, 'ca.crt'), 'utf8')).toBe(got.caPem);
    expect(log.lines).toEqual([
      {
        level: 'info',
        msg: `Generated self-signed cert (${join(dir, 'apiserver.crt')}, ${join(dir, 'apiserver.key')})`,
        kv: {},
      },
    ]);
  });

  it('reuses the pair on restart: same files, same certificate', async () => {
    const dir = tempDir();
    const first = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS });
    const before = statSync(join(dir, 'apiserver.crt')).mtimeMs;
    const second = await ensureSelfSignedCert({ certDir: dir, hosts: ['localhost', '127.0.0.1'] });
    expect(second.generated).toBe(false);
    expect(second.certPem).toBe(first.certPem);
    expect(second.keyPem).toBe(first.keyPem);
    expect(second.caPem).toBe(first.caPem);
    expect(statSync(join(dir, 'apiserver.crt')).mtimeMs).toBe(before);
  });

  it.each([
    [
      'a host is no longer covered',
      { hosts: [...HOSTS, 'new.example.com'] },
      /does not cover new\.example\.com/,
    ],
    ['the certificate is about to expire', { now: new Date(Date.now() + YEAR_MS - 3600_000) }, /expires at/],
    ['the certificate has expired', { now: new Date(Date.now() + 2 * YEAR_MS) }, /expires at/],
  ])('regenerates its own pair when %s', async (_name, change, reason) => {
    const dir = tempDir();
    const first = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS });
    const log = recordingLogger();
    const second = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS, logger: log, ...change });
    expect(second.generated).toBe(true);
    expect(second.certPem).not.toBe(first.certPem);
    expect(readFileSync(join(dir, 'apiserver.crt'), 'utf8')).toBe(second.certPem);
    expect(log.lines[0]?.msg).toBe('Regenerating self-signed cert');
    expect(String(log.lines[0]?.kv.reason)).toMatch(reason);
  });

  it('regenerates its own pair when the key no longer matches', async () => {
    const dir = tempDir();
    await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS });
    const other = await ensureSelfSignedCert({ certDir: '', hosts: HOSTS });
    writeFileSync(join(dir, 'apiserver.key'), other.keyPem);
    const got = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS });
    expect(got.generated).toBe(true);
  });

  it('keeps an operator-provided pair it did not generate, with a warning, and never overwrites it', async () => {
    const dir = tempDir();
    const ca = await testCA('operator-ca');
    const leaf = await testLeaf(ca, {
      commonName: 'operator',
      hosts: ['localhost'],
      notAfter: new Date(Date.now() + YEAR_MS),
    });
    writePair(dir, 'apiserver', leaf, ca);
    const log = recordingLogger();
    const got = await ensureSelfSignedCert({ certDir: dir, hosts: ['localhost', '10.9.9.9'], logger: log });
    expect(got.generated).toBe(false);
    expect(got.certPem).toBe(leaf.certPem + ca.certPem);
    expect(got.caPem).toBe(ca.certPem);
    expect(log.lines).toEqual([
      {
        level: 'warning',
        msg: 'Using certificate from --cert-dir anyway',
        kv: { cert: join(dir, 'apiserver.crt'), problem: 'does not cover 10.9.9.9' },
      },
    ]);
  });

  it('fails with one line when an operator-provided pair cannot be loaded', async () => {
    const dir = tempDir();
    const ca = await testCA('operator-ca');
    const leaf = await testLeaf(ca, { commonName: 'operator' });
    const other = await testLeaf(ca, { commonName: 'other' });
    writePair(dir, 'apiserver', leaf);
    writeFileSync(join(dir, 'apiserver.key'), other.keyPem);
    await expect(ensureSelfSignedCert({ certDir: dir, hosts: HOSTS })).rejects.toThrow(
      `--cert-dir: unable to load ${join(dir, 'apiserver.crt')} and ${join(dir, 'apiserver.key')}: ` +
        'tls: private key does not match public key (remove both files to have a self-signed pair generated)',
    );
  });

  it('uses the given file names', async () => {
    const dir = tempDir();
    const got = await ensureSelfSignedCert({
      certDir: dir,
      hosts: HOSTS,
      fileNames: pairFileNames('platform-scheduler'),
    });
    expect(got).toMatchObject({
      certFile: join(dir, 'platform-scheduler.crt'),
      keyFile: join(dir, 'platform-scheduler.key'),
      caFile: join(dir, 'platform-scheduler-ca.crt'),
    });
  });

  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['localhost', 'localhost'],
    ['keel.example.com', 'keel.example.com'],
  ])('is trusted by a client that trusts ca.crt and checks the name %s', async (_name, servername) => {
    const dir = tempDir();
    const got = await ensureSelfSignedCert({ certDir: dir, hosts: HOSTS });
    const port = await serve(got.certPem, got.keyPem);
    const caPem = readFileSync(join(dir, 'ca.crt'), 'utf8');
    const res = await handshake(port, {
      ca: caPem,
      rejectUnauthorized: true,
      ...(servername === '127.0.0.1' ? {} : { servername }),
    });
    expect(res).toMatchObject({ ok: true, authorized: true });
  });

  it.each([
    [
      'a name it does not cover',
      { servername: 'other.example.com', otherCA: false },
      'ERR_TLS_CERT_ALTNAME_INVALID',
    ],
    // The listener sends its CA along, hence "self-signed in chain" rather than "unable to verify".
    ['a CA it was not signed by', { servername: 'localhost', otherCA: true }, 'SELF_SIGNED_CERT_IN_CHAIN'],
  ])('is rejected by a verifying client for %s', async (_name, opts, code) => {
    const got = await ensureSelfSignedCert({ certDir: '', hosts: HOSTS });
    const port = await serve(got.certPem, got.keyPem);
    const ca = opts.otherCA ? (await testCA()).certPem : got.caPem;
    const res = await handshake(port, { ca, rejectUnauthorized: true, servername: opts.servername });
    expect(res).toEqual({ ok: false, code });
  });
});

describe('selfSignedHosts', () => {
  it.each([
    [{ bindAddress: '0.0.0.0' }, ['localhost', '127.0.0.1', '::1']],
    [{ bindAddress: '10.1.2.3' }, ['10.1.2.3', 'localhost', '127.0.0.1', '::1']],
    [
      {
        bindAddress: '0.0.0.0',
        advertiseAddress: '192.168.1.10',
        externalHostname: 'API.example.com',
        alternateNames: ['platform.default.svc', '10.96.0.1'],
      },
      [
        '192.168.1.10',
        'localhost',
        'api.example.com',
        'platform.default.svc',
        '10.96.0.1',
        '127.0.0.1',
        '::1',
      ],
    ],
  ])('%j → %j', (input, want) => {
    expect(selfSignedHosts(input)).toEqual(want);
  });
});
