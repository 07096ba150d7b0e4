/** --profiling: /debug/pprof/ with a V8 CPU profile and heap snapshot, behind authorization; off means 404. */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, TestApiServer, USER_TOKEN } from '@keel/testing';

describe('/debug/pprof/ with --profiling (the default)', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--authorization-mode=RBAC'] });
    await server.ready();
  });
  afterAll(() => server.stop());

  it('lists the profiles and takes a CPU profile for ?seconds', async () => {
    const index = await server.request('GET', '/debug/pprof/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('<a href="profile">profile</a>');
    const cpu = await server.request('GET', '/debug/pprof/profile?seconds=1');
    expect(cpu.status).toBe(200);
    expect(cpu.headers['content-disposition']).toBe('attachment; filename="profile.cpuprofile"');
    const profile = cpu.json as { nodes: unknown[]; startTime: number; endTime: number };
    expect(profile.nodes.length).toBeGreaterThan(0);
    expect(profile.endTime - profile.startTime).toBeGreaterThanOrEqual(900_000); // microseconds
  });

  it('streams a heap snapshot', async () => {
    const res = await request(`${server.url}/debug/pprof/heap`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      dispatcher: server.dispatcher,
    });
    expect(res.statusCode).toBe(200);
    let head = '';
    for await (const chunk of res.body) {
      head += (chunk as Buffer).toString();
      if (head.length > 64) break;
    }
    res.body.destroy();
    expect(head).toMatch(/^\{"snapshot":\{"meta":/);
  });

  it('answers bad requests as Go does, and needs authorization', async () => {
    const unknown = await server.request('GET', '/debug/pprof/goroutine');
    expect([unknown.status, unknown.text]).toEqual([404, 'Unknown profile\n']);
    const bad = await server.request('GET', '/debug/pprof/profile?seconds=abc');
    expect([bad.status, bad.text]).toEqual([400, 'Bad Request: invalid value for "seconds"\n']);
    const denied = await server.request('GET', '/debug/pprof/', { token: USER_TOKEN });
    expect(denied.status).toBe(403);
    expect((denied.json as { message: string }).message).toBe(
      'forbidden: User "alice" cannot get path "/debug/pprof/"',
    );
  });
});

describe('--profiling=false', () => {
  it('serves no /debug/pprof/ path', async () => {
    const server = await TestApiServer.start({ args: ['--profiling=false'] });
    try {
      await server.ready();
      for (const path of ['/debug/pprof/', '/debug/pprof/profile?seconds=1', '/debug/pprof/heap'])
        expect((await server.request('GET', path)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
