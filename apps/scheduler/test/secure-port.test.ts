import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonProcess, freePort, http2Request, http2Session, schedulerEntry } from '@keel/testing';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

const entry = schedulerEntry;
/** The scheduler needs an API server address to start; nothing listens on port 1. */
const unreachable = '--master=https://127.0.0.1:1';

interface Started {
  daemon: DaemonProcess;
  url: string;
  ca: string;
  get(path: string): Promise<{ status: number; text: string; type: string }>;
  close(): Promise<void>;
}

const running: Started[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

/** The built scheduler with HTTPS on a free port, its self-signed CA trusted by the client. */
async function start(extra: string[] = []): Promise<Started> {
  const port = await freePort();
  const certDir = mkdtempSync(join(tmpdir(), 'keel-sched-'));
  const daemon = DaemonProcess.start(entry, [
    '--leader-elect=false',
    unreachable,
    '--bind-address=127.0.0.1',
    `--secure-port=${port}`,
    `--cert-dir=${certDir}`,
    ...extra,
  ]);
  await daemon.waitFor(/"Serving securely"/);
  const ca = readFileSync(join(certDir, 'platform-scheduler-ca.crt'), 'utf8');
  const agent = new Agent({ connect: { ca } });
  const started: Started = {
    daemon,
    url: `https://127.0.0.1:${port}`,
    ca,
    async get(path) {
      const r = await request(`https://127.0.0.1:${port}${path}`, { dispatcher: agent });
      return { status: r.statusCode, text: await r.body.text(), type: String(r.headers['content-type']) };
    },
    async close() {
      await agent.close();
      expect((await daemon.stop()).code).toBe(0);
    },
  };
  running.push(started);
  return started;
}

describe('keel-scheduler secure port (built, HTTPS)', () => {
  it('serves the probes to anonymous callers, as the default always-allow paths say', async () => {
    const s = await start();
    expect(await s.get('/healthz')).toMatchObject({ status: 200, text: 'ok' });
    expect(await s.get('/livez')).toMatchObject({ status: 200, text: 'ok' });
    const ready = await s.get('/readyz?verbose');
    expect(ready.status).toBe(200);
    expect(ready.text).toBe('[+]ping ok\n[+]log ok\n[+]shutdown ok\nreadyz check passed\n');
  });

  it('forbids /metrics to anonymous callers with a Status naming the path', async () => {
    const s = await start();
    const r = await s.get('/metrics');
    expect(r.status).toBe(403);
    expect(JSON.parse(r.text)).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'forbidden: User "system:anonymous" cannot get path "/metrics"',
    });
  });

  it('serves Prometheus metrics when /metrics is an always-allow path', async () => {
    const s = await start(['--authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics']);
    const r = await s.get('/metrics');
    expect(r.status).toBe(200);
    expect(r.type).toContain('text/plain');
    expect(r.text).toContain('# TYPE scheduler_pending_pods gauge');
    expect(r.text).toContain('# TYPE scheduler_schedule_attempts_total counter');
    expect(r.text).toContain('# TYPE scheduler_scheduling_attempt_duration_seconds histogram');
    expect(r.text).toContain('process_cpu_seconds_total');
  });

  it('serves /debug/pprof/ with --profiling (the default) to an authorized caller, and none without it', async () => {
    const on = await start(['--authorization-always-allow-paths=/debug/pprof/*']);
    expect(await on.get('/debug/pprof/')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    const cpu = await on.get('/debug/pprof/profile?seconds=1');
    expect(cpu.status).toBe(200);
    expect((JSON.parse(cpu.text) as { nodes: unknown[] }).nodes.length).toBeGreaterThan(0);
    await expect((await start()).get('/debug/pprof/')).resolves.toMatchObject({ status: 403 });
    const off = await start(['--authorization-always-allow-paths=/debug/pprof/*', '--profiling=false']);
    expect(await off.get('/debug/pprof/')).toMatchObject({ status: 404 });
  });

  it('leaves out metrics named in --disabled-metrics', async () => {
    const s = await start([
      '--authorization-always-allow-paths=/metrics',
      '--disabled-metrics=scheduler_pending_pods',
    ]);
    const r = await s.get('/metrics');
    expect(r.text).not.toContain('scheduler_pending_pods');
    expect(r.text).toContain('scheduler_schedule_attempts_total');
  });

  it('serves HTTP/2 too, announcing --http2-max-streams-per-connection, with the same answers', async () => {
    const s = await start(['--http2-max-streams-per-connection=33']);
    const session = await http2Session(s.url, s.ca);
    try {
      expect(session.alpnProtocol).toBe('h2');
      expect(session.remoteSettings.maxConcurrentStreams).toBe(33);
      expect(await http2Request(session, '/healthz')).toMatchObject({ status: 200, text: 'ok' });
      const [h2, h1] = [await http2Request(session, '/metrics'), await s.get('/metrics')];
      expect({ status: h2.status, text: h2.text }).toEqual({ status: h1.status, text: h1.text });
      expect(h2.status).toBe(403);
    } finally {
      session.close();
    }
  });

  it('exits 1 when its port is taken, though its informers had started meanwhile', async () => {
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as AddressInfo).port)),
    );
    try {
      const daemon = DaemonProcess.start(entry, [
        '--leader-elect=false',
        unreachable,
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
      ]);
      const result = await daemon.wait();
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/EADDRINUSE|address already in use/);
    } finally {
      taken.close();
    }
  });

  it('does not listen at all with --secure-port=0', async () => {
    const daemon = DaemonProcess.start(entry, ['--leader-elect=false', unreachable, '--secure-port=0']);
    await daemon.waitFor(/Secure serving is off/);
    expect((await daemon.stop()).code).toBe(0);
  });
});
