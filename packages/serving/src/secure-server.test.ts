import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discardLogger } from '@keel/log';
import { createSecureServer, type SecureServer, type SecureServerOptions } from './secure-server.js';
import { peerIdentity } from './tls/peer-identity.js';
import { handshake, httpsRequest } from './testing/client.js';
import { configFromFlags, servingConfig } from './testing/config.js';
import { recordingLogger } from './testing/logger.js';
import { tempDir, testCA, testLeaf, writePair } from './testing/pki.js';

const running: SecureServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

function make(opts: Partial<SecureServerOptions> = {}): SecureServer {
  const server = createSecureServer({
    config: servingConfig(),
    handler: (_q, r) => r.end('hello'),
    logger: discardLogger,
    ...opts,
  });
  running.push(server);
  return server;
}

describe('SecureServer.listen', () => {
  it('serves HTTPS/1.1 on an ephemeral port with a certificate clients can verify through its CA', async () => {
    const logger = recordingLogger();
    const server = make({ logger });
    const { address, port } = await server.listen();
    expect(address).toBe('127.0.0.1');
    expect(port).toBeGreaterThan(0);
    expect(logger.lines.map((l) => l.msg)).toEqual([
      'Generated self-signed cert in-memory',
      `Serving securely on 127.0.0.1:${port}`,
    ]);
    const ca = server.servingCertificate?.caPem;
    const reply = await httpsRequest(port, { ca, servername: 'localhost' });
    expect(reply).toMatchObject({ status: 200, body: 'hello' });
    const hs = await handshake(port, { ca, rejectUnauthorized: true, ALPNProtocols: ['h2', 'http/1.1'] });
    expect(hs).toMatchObject({ ok: true, authorized: true });
  });

  it('keeps the self-signed pair in --cert-dir and reuses it on restart', async () => {
    const dir = tempDir();
    const config = servingConfig({ certDir: dir });
    const first = make({ config });
    const { port } = await first.listen();
    const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
    expect((await httpsRequest(port, { ca })).status).toBe(200);
    await first.close();

    const second = make({ config });
    const again = await second.listen();
    expect(second.servingCertificate?.certPem).toBe(first.servingCertificate?.certPem);
    expect((await httpsRequest(again.port, { ca })).status).toBe(200);
  });

  it('serves --tls-cert-file and hands out the chain after the leaf as the CA', async () => {
    const dir = tempDir();
    const ca = await testCA('operator-ca');
    const files = writePair(
      dir,
      'serving',
      await testLeaf(ca, { commonName: 'operator', hosts: ['127.0.0.1'] }),
      ca,
    );
    const server = make({
      config: servingConfig({ certFile: files.certFile, keyFile: files.keyFile, certDir: dir }),
    });
    const { port } = await server.listen();
    expect(server.servingCertificate?.caPem).toBe(ca.certPem);
    expect(await handshake(port, { ca: ca.certPem, rejectUnauthorized: true })).toMatchObject({
      ok: true,
      subjectCN: 'operator',
    });
  });

  it('binds every address family for the unspecified address', async () => {
    const server = make({ config: servingConfig({ bindAddress: '0.0.0.0' }) });
    const { address, port } = await server.listen();
    expect(['::', '0.0.0.0']).toContain(address);
    expect((await httpsRequest(port, { rejectUnauthorized: false })).status).toBe(200);
  });

  it('checks the client certificate against the client CA under an SNI certificate too', async () => {
    const dir = tempDir();
    const sniCA = await testCA('sni-ca');
    const sni = writePair(
      dir,
      'sni',
      await testLeaf(sniCA, { commonName: 'sni', hosts: ['sni.example.com'] }),
    );
    const clientCA = await testCA('client-ca');
    const client = await testLeaf(clientCA, { commonName: 'bob', organizations: ['ops'], usage: 'client' });
    const server = make({
      config: servingConfig({ sniCertKeys: [{ ...sni, names: [] }] }),
      clientCA: clientCA.certPem,
      handler: (req, res) => res.end(JSON.stringify(peerIdentity(req.socket))),
    });
    const { port } = await server.listen();
    const reply = await httpsRequest(port, {
      servername: 'sni.example.com',
      ca: sniCA.certPem,
      cert: client.certPem,
      key: client.keyPem,
    });
    expect(JSON.parse(reply.body)).toMatchObject({ user: 'bob', groups: ['ops'] });
  });

  it('takes a client CA that is still being looked up: it verifies client certificates against it', async () => {
    const clientCA = await testCA('late-client-ca');
    const client = await testLeaf(clientCA, { commonName: 'alice', organizations: ['dev'], usage: 'client' });
    let give: (pem: string) => void = () => undefined;
    const server = make({
      clientCA: new Promise<string>((resolve) => (give = resolve)),
      handler: (req, res) => res.end(JSON.stringify(peerIdentity(req.socket))),
    });
    const listening = server.listen();
    setTimeout(() => give(clientCA.certPem), 20);
    const { port } = await listening;
    const ca = server.servingCertificate?.caPem ?? '';
    const reply = await httpsRequest(port, { ca, cert: client.certPem, key: client.keyPem });
    expect(JSON.parse(reply.body)).toMatchObject({ user: 'alice', groups: ['dev'] });
  });

  it('fails with the lookup when the client CA promise rejects, and with none for undefined', async () => {
    await expect(make({ clientCA: Promise.reject(new Error('lookup failed')) }).listen()).rejects.toThrow(
      'lookup failed',
    );
    const { port } = await make({ clientCA: Promise.resolve(undefined) }).listen();
    expect(port).toBeGreaterThan(0);
  });

  it("fails with kube's one line when the port is taken", async () => {
    const { port } = await make().listen();
    await expect(make({ config: servingConfig({ port }) }).listen()).rejects.toThrow(
      `failed to create listener: failed to listen on 127.0.0.1:${port}: listen tcp 127.0.0.1:${port}: bind: address already in use`,
    );
  });

  it.each([
    [
      'a missing --tls-cert-file',
      (dir: string) => servingConfig({ certFile: join(dir, 'nope.crt'), keyFile: join(dir, 'nope.key') }),
      (dir: string) =>
        `--tls-cert-file/--tls-private-key-file (${join(dir, 'nope.crt')}, ${join(dir, 'nope.key')}): ` +
        `unable to load server certificate: open ${join(dir, 'nope.crt')}: no such file or directory`,
    ],
    [
      'a missing --tls-sni-cert-key file',
      (dir: string) =>
        servingConfig({
          sniCertKeys: [{ certFile: join(dir, 'a.crt'), keyFile: join(dir, 'a.key'), names: [] }],
        }),
      (dir: string) =>
        `--tls-sni-cert-key "${join(dir, 'a.crt')},${join(dir, 'a.key')}": failed to load SNI cert and key: ` +
        `open ${join(dir, 'a.crt')}: no such file or directory`,
    ],
  ])('fails start-up with one line for %s', async (_name, config, message) => {
    const dir = tempDir();
    const err = await make({ config: config(dir) })
      .listen()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toMatchObject({ name: 'ServingError', message: message(dir) });
  });

  it('supports --permit-port-sharing only where Node has reusePort', async () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    const supported = major > 22 || (major === 22 && minor >= 12);
    const listening = make({ config: configFromFlags(['--permit-port-sharing']) }).listen();
    if (supported) {
      await expect(listening).resolves.toMatchObject({ address: '127.0.0.1' });
    } else {
      await expect(listening).rejects.toThrow(
        `--permit-port-sharing: SO_REUSEPORT needs Node.js 22.12 or later; this is Node.js ${process.versions.node}`,
      );
    }
  });
});
