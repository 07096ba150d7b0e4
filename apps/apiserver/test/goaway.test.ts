import { Agent } from 'node:https';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS } from './support/fixtures.js';
import { keepAliveAgent, open, openWatch } from './support/http.js';

// --goaway-chance over HTTP/1.1: a random fraction of ordinary requests is answered as usual with
// `Connection: close`, so the client dials again; watches never are. Every request goes over a
// keep-alive connection, since TestApiServer.request's client asks for a close itself.

/**
 * How many requests the drawing test sends at the maximum chance, 0.02, and how many of them may
 * say `Connection: close`. The count is Binomial(1000, 0.02), mean 20. A correct server fails the
 * test only by drawing no close at all, 0.98^1000 = 1.7e-9, or more than 60, 5.8e-14 (the exact
 * binomial tail): about 2e-9 per run. All 1000 closing would be 0.02^1000.
 */
const REQUESTS = 1000;
const MAX_CLOSES = 60;

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  /** Whether the request went out on a connection an earlier request had used. */
  readonly reused: boolean;
}

async function get(server: TestApiServer, agent: Agent, path: string): Promise<Answer> {
  const { req, response } = open(server, path, { agent });
  req.end();
  const res = await response;
  res.resume();
  await new Promise((resolve, reject) => res.on('end', resolve).on('error', reject));
  return { status: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket };
}

describe('--goaway-chance', () => {
  let drawing: TestApiServer;
  let plain: TestApiServer;
  beforeAll(async () => {
    [drawing, plain] = await Promise.all([
      TestApiServer.start({ args: ['--goaway-chance=0.02'] }),
      TestApiServer.start(),
    ]);
    await Promise.all([drawing.ready(), plain.ready()]);
  });
  afterAll(async () => {
    await Promise.all([drawing?.stop(), plain?.stop()]);
  });

  it('answers every request, a few of them with Connection: close, after which the client reconnects', async () => {
    const agent = keepAliveAgent(drawing);
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < REQUESTS; i++) answers.push(await get(drawing, agent, EVENTS));
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      const closes = answers.filter((a) => a.connection === 'close').length;
      expect(answers.length - closes).toBe(answers.filter((a) => a.connection === 'keep-alive').length);
      expect(closes).toBeGreaterThan(0);
      expect(closes).toBeLessThanOrEqual(MAX_CLOSES);
      // The server did close: the request after each close went out on a new connection.
      const afterClose = answers.slice(1).filter((_a, i) => answers[i]?.connection === 'close');
      expect(afterClose.filter((a) => a.reused)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it('never draws for a watch', async () => {
    // Each watch on its own kept-alive connection. Were watches drawn, 300 of them would all
    // escape a close with probability 0.98^300 = 0.2%.
    const agent = new Agent({ keepAlive: true, ca: drawing.ca });
    try {
      const watches = await Promise.all(
        Array.from({ length: 300 }, () => openWatch(drawing, `${EVENTS}?watch=true`, { agent })),
      );
      for (const w of watches) w.close();
      expect(
        watches
          .map((w) => [w.status, w.headers.connection])
          .filter(([s, c]) => s !== 200 || c !== 'keep-alive'),
      ).toEqual([]);
    } finally {
      agent.destroy();
    }
  });

  it('is off by default: no answer says Connection: close', async () => {
    const agent = keepAliveAgent(plain);
    try {
      const answers: Answer[] = [];
      for (let i = 0; i < 300; i++) answers.push(await get(plain, agent, EVENTS));
      expect(answers.filter((a) => a.status !== 200 || a.connection !== 'keep-alive')).toEqual([]);
      // All of them on the one connection.
      expect(answers.slice(1).filter((a) => !a.reused)).toEqual([]);
    } finally {
      agent.destroy();
    }
  });
});
