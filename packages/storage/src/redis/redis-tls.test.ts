import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startRedisServer, type RedisServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorageError } from '../errors.js';
import { EventCollector } from '../testing/index.js';
import { createRedisStorage } from './redis-storage.js';
import type { Storage } from '../storage.js';

/** A throwaway CA with a server certificate for 127.0.0.1 and a client certificate (openssl). */
function makeCerts(
  dir: string,
): Record<'ca' | 'serverCert' | 'serverKey' | 'clientCert' | 'clientKey', string> {
  const f = (name: string): string => join(dir, name);
  const ssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    f('ca.key'),
    '-out',
    f('ca.crt'),
    '-days',
    '1',
    '-subj',
    '/CN=keel-test-ca',
  );
  writeFileSync(f('server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  for (const who of ['server', 'client']) {
    ssl('req', ...ec, '-keyout', f(`${who}.key`), '-out', f(`${who}.csr`), '-subj', `/CN=keel-test-${who}`);
    const ext = who === 'server' ? ['-extfile', f('server.ext')] : [];
    ssl(
      'x509',
      '-req',
      '-in',
      f(`${who}.csr`),
      '-CA',
      f('ca.crt'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-out',
      f(`${who}.crt`),
      '-days',
      '1',
      ...ext,
    );
  }
  return {
    ca: f('ca.crt'),
    serverCert: f('server.crt'),
    serverKey: f('server.key'),
    clientCert: f('client.crt'),
    clientKey: f('client.key'),
  };
}

describe('redis storage over TLS (rediss://)', () => {
  let dir: string;
  let server: RedisServer;
  let url: string;
  let certs: ReturnType<typeof makeCerts>;
  const stores: Storage[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'keel-redis-tls-'));
    certs = makeCerts(dir);
    const tlsPort = await freePort();
    server = await startRedisServer({
      args: [
        '--port',
        '0',
        '--tls-port',
        String(tlsPort),
        '--tls-cert-file',
        certs.serverCert,
        '--tls-key-file',
        certs.serverKey,
        '--tls-ca-cert-file',
        certs.ca,
        '--tls-auth-clients',
        'yes',
      ],
    });
    url = `rediss://127.0.0.1:${tlsPort}`;
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes, reads and watches with the CA, certificate and key files', async () => {
    const store = await createRedisStorage({
      urls: [url],
      tls: { caFile: certs.ca, certFile: certs.clientCert, keyFile: certs.clientKey },
      prefix: '/tls',
    });
    stores.push(store);
    await store.healthCheck(1_000);
    const w = new EventCollector(store, '/things');
    await store.create('/things/a', { metadata: { name: 'a' } });
    expect((await store.get('/things/a')).metadata?.resourceVersion).toBe('1');
    expect((await w.waitFor(1)).map((e) => e.type)).toEqual(['ADDED']);
    await w.stop();
  });

  it('is Unreachable without a client certificate the server accepts', async () => {
    const store = await createRedisStorage({
      urls: [url],
      tls: { caFile: certs.ca },
      prefix: '/tls',
      startupTimeoutMs: 500,
    });
    stores.push(store);
    const err: unknown = await store.healthCheck(500).catch((e: unknown) => e);
    expect(isStorageError(err) ? err.code : err).toBe('Unreachable');
  });
});
