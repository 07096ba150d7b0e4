import { createConnection } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from './redis-server.js';

/** Sends one inline command and returns the raw reply (no client library in this package). */
function send(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = createConnection(port, '127.0.0.1');
    let reply = '';
    sock.on('error', reject);
    sock.on('data', (d: Buffer) => {
      reply += d.toString();
      if (reply.endsWith('\r\n')) {
        sock.end();
        resolve(reply);
      }
    });
    sock.write(`${command}\r\n`);
  });
}

describe('startRedisServer', () => {
  const servers: RedisServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  it('starts redis-server on a free port of 127.0.0.1, never 6379', async () => {
    const s = await startRedisServer();
    servers.push(s);
    expect(s.port).not.toBe(6379);
    expect(s.url).toBe(`redis://127.0.0.1:${s.port}`);
    expect(await send(s.port, 'PING')).toBe('+PONG\r\n');
  });

  it('keeps the data across restart() on the same port', async () => {
    const s = await startRedisServer();
    servers.push(s);
    expect(await send(s.port, 'SET k v1')).toBe('+OK\r\n');
    await s.stop();
    await expect(send(s.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
    await s.restart();
    expect(await send(s.port, 'GET k')).toBe('$2\r\nv1\r\n');
  });

  it('refuses port 6379', async () => {
    await expect(startRedisServer({ port: 6379 })).rejects.toThrow(/6379/);
  });

  it('reports a server that cannot start, with its output', async () => {
    await expect(startRedisServer({ args: ['--no-such-option', 'x'] })).rejects.toThrow(
      /exited early[\s\S]*no-such-option/i,
    );
  });
});
