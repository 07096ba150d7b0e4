import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestConnectProxy, TestPKI } from '@keel/testing';
import { httpConnectDialer } from './http-connect.js';

/** A TCP echo server: what goes through the tunnel comes back. */
let echo: Server;
let echoPort = 0;
const pki = new TestPKI();

beforeAll(async () => {
  echo = createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => echo.close(() => resolve()));
  pki.cleanup();
});

async function roundTrip(dial: ReturnType<typeof httpConnectDialer>): Promise<string> {
  const socket = await dial('127.0.0.1', echoPort);
  socket.resume();
  const answer = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(d.toString())));
  socket.write('ping');
  const got = await answer;
  socket.destroy();
  return got;
}

describe('HTTP CONNECT dialer', () => {
  it('tunnels through a proxy over TCP', async () => {
    const proxy = await TestConnectProxy.start();
    try {
      const port = Number(new URL(proxy.address).port);
      expect(await roundTrip(httpConnectDialer({ kind: 'http', host: '127.0.0.1', port }, 5000))).toBe(
        'ping',
      );
      expect(proxy.tunnelsTo(`127.0.0.1:${echoPort}`)).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('tunnels through a proxy on a Unix socket', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'egress-uds-')), 'proxy.sock');
    const proxy = await TestConnectProxy.start({ udsPath: path });
    try {
      expect(await roundTrip(httpConnectDialer({ kind: 'uds', path }, 5000))).toBe('ping');
      expect(proxy.tunnels).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('tunnels through an https proxy that checks the client certificate', async () => {
    const ca = pki.ca('proxy-ca');
    const serving = pki.leaf(ca, { cn: 'proxy', usage: 'server', hosts: ['127.0.0.1'] });
    const client = pki.leaf(ca, { cn: 'keel-apiserver', usage: 'client' });
    const proxy = await TestConnectProxy.start({
      tls: { cert: serving.certPem, key: serving.keyPem, clientCA: ca.certPem },
    });
    try {
      const port = Number(new URL(proxy.address).port);
      const dial = httpConnectDialer(
        { kind: 'https', host: '127.0.0.1', port, ca: ca.certPem, cert: client.certPem, key: client.keyPem },
        5000,
      );
      expect(await roundTrip(dial)).toBe('ping');
      expect(proxy.tunnels).toEqual([{ target: `127.0.0.1:${echoPort}`, clientCN: 'keel-apiserver' }]);
    } finally {
      await proxy.close();
    }
  });

  it("fails in upstream's words when the proxy refuses or is not there", async () => {
    const proxy = await TestConnectProxy.start();
    proxy.refuse = true;
    const port = Number(new URL(proxy.address).port);
    try {
      await expect(
        httpConnectDialer({ kind: 'http', host: '127.0.0.1', port }, 5000)('10.0.0.1', 443),
      ).rejects.toThrow(`proxy error from 127.0.0.1:${port} while dialing 10.0.0.1:443: 403 Forbidden`);
    } finally {
      await proxy.close();
    }
    await expect(
      httpConnectDialer({ kind: 'http', host: '127.0.0.1', port }, 5000)('10.0.0.1', 443),
    ).rejects.toThrow(`dialing proxy 127.0.0.1:${port} failed: ECONNREFUSED`);
  });
});
