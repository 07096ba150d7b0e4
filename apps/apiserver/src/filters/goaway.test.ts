import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withProbabilisticGoaway } from './goaway.js';
import { withRequestInfo } from './request-info.js';

const LIST = '/apis/events.k8s.io/v1/namespaces/default/events';

describe('withProbabilisticGoaway', () => {
  // The draws the filter will get, in order; each test sets them.
  let draws: number[] = [];
  let drawn = 0;
  const random = () => {
    drawn++;
    const d = draws.shift();
    if (d === undefined) throw new Error('more draws than the test scripted');
    return d;
  };
  let server: Server;
  let port = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    // Not through Express: under vitest's --conditions=import, require('is-promise') in Express's
    // router gets the ESM build, so every handler's return ends in a TypeError that destroys the
    // kept-alive socket, which is what this test watches.
    const filters = [withRequestInfo(), withProbabilisticGoaway(0.25, random)];
    server = createServer((req, res) => {
      Object.assign(res, { locals: {} });
      const step = (i: number): void => {
        const filter = filters[i];
        if (filter) void filter(req as Request, res as Response, () => step(i + 1));
        else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      };
      step(0);
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    agent.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });

  function get(path: string): Promise<{ status: number; connection: string | undefined; reused: boolean }> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('closes the connection after a request whose draw is below the chance, and answers it as usual', async () => {
    draws = [0.5, 0.1, 0.25, 0.2499];
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(LIST));
    expect(answers.map((a) => [a.status, a.connection])).toEqual([
      [200, 'keep-alive'],
      [200, 'close'],
      [200, 'keep-alive'],
      [200, 'close'],
    ]);
    // The request after a close had to open a new connection; the one after a keep-alive did not.
    expect(answers.slice(1).map((a) => a.reused)).toEqual([true, false, true]);
  });

  it('never draws for a watch', async () => {
    draws = [];
    drawn = 0;
    const watch = await get(`${LIST}?watch=true`);
    expect([watch.status, watch.connection, drawn]).toEqual([200, 'keep-alive', 0]);
  });
});
