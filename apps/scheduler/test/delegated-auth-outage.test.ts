import { setTimeout as sleep } from 'node:timers/promises';
import {
  ADMIN_TOKEN,
  DaemonProcess,
  freePort,
  schedulerEntry,
  TestApiServer,
  TestPKI,
  USER_TOKEN,
} from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionConfig, startScheduler, type RunningScheduler } from './delegated-auth-support.js';

// What the scheduler's secure port does when the API server it delegates to cannot be reached:
// at start-up (the ConfigMap lookup and --authentication-tolerate-lookup-failure) and later
// (cached answers keep working for their TTLs, everything else fails closed).

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

const pki = new TestPKI();
const clientCA = pki.ca('outage-client-ca');
const mona = pki.client(clientCA, 'mona', ['monitoring']);
const policyFile = pki.file(
  'policy.jsonl',
  policy({ group: 'monitoring', nonResourcePath: '/metrics', readonly: true }) + '\n',
);
afterAll(() => pki.cleanup());

describe('keel-scheduler delegated auth when the API server is unreachable (built)', () => {
  let api: TestApiServer | undefined;
  let cc: string;
  let dead: string;
  const schedulers: RunningScheduler[] = [];
  const start = async (args: string[]) => {
    const s = await startScheduler([`--connection-config=${cc}`, ...args]);
    schedulers.push(s);
    return s;
  };

  beforeAll(async () => {
    api = await TestApiServer.start({
      args: ['--authorization-mode=ABAC', `--authorization-policy-file=${policyFile}`],
    });
    await api.ready();
    cc = connectionConfig(pki.dir, api.url, api.ca);
    // Nothing listens there: every connection is refused.
    dead = connectionConfig(pki.dir, `https://127.0.0.1:${await freePort()}`, api.ca);
  });
  afterAll(async () => {
    for (const s of schedulers.splice(0)) await s.close();
    await api?.stop();
  });

  it('starts when the lookup fails (tolerated by default), logging why, and fails closed', async () => {
    const s = await start([
      `--authentication-connection-config=${dead}`,
      `--authorization-connection-config=${dead}`,
    ]);
    expect(s.daemon.stderr).toContain('"Error looking up in-cluster authentication configuration"');
    expect(s.daemon.stderr).toContain('--authentication-tolerate-lookup-failure=false');

    expect(await s.get('/healthz')).toMatchObject({ status: 200, text: 'ok' });
    // The token cannot be reviewed: 401, never anonymous.
    expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(401);
    expect((await s.get('/healthz', { token: ADMIN_TOKEN })).status).toBe(401);
    // The access cannot be reviewed: kube's plain-text 500.
    const r = await s.get('/metrics');
    expect(r.status).toBe(500);
    expect(r.type).toContain('text/plain');
    expect(r.text).toMatch(
      /^Internal Server Error: "\/metrics": POST https:\/\/127\.0\.0\.1:\d+\/apis\/authorization\.k8s\.io\/v1\/subjectaccessreviews.*ECONNREFUSED/,
    );
  });

  it('refuses to start with --authentication-tolerate-lookup-failure=false', async () => {
    const port = await freePort();
    const daemon = DaemonProcess.start(schedulerEntry, [
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${port}`,
      `--cert-dir=${pki.dir}`,
      `--connection-config=${cc}`,
      `--authentication-connection-config=${dead}`,
      '--authentication-tolerate-lookup-failure=false',
    ]);
    const result = await daemon.wait();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'unable to load configmap based request-header-client-ca-file: GET https://127.0.0.1:',
    );
    expect(result.stderr).not.toContain('Serving securely');
  });

  it('does not look anything up with --authentication-skip-lookup, so the strict setting starts', async () => {
    const s = await start([
      `--authentication-connection-config=${dead}`,
      '--authentication-tolerate-lookup-failure=false',
      '--authentication-skip-lookup',
    ]);
    expect(s.daemon.stderr).not.toContain('Error looking up');
    expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(401);
  });

  it('keeps cached answers for their TTLs once the API server is gone', async () => {
    const s = await start([
      `--authentication-connection-config=${cc}`,
      `--authorization-connection-config=${cc}`,
      `--client-ca-file=${clientCA.certFile}`,
      '--authentication-token-webhook-cache-ttl=4s',
      '--authorization-webhook-cache-unauthorized-ttl=4s',
      '--authorization-webhook-cache-authorized-ttl=1m',
    ]);
    const before = Date.now();
    expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await s.get('/metrics', { token: USER_TOKEN })).status).toBe(403);
    expect((await s.get('/metrics', { cert: mona })).status).toBe(200);
    // Every answer above was cached between `before` and `cachedBy`.
    const cachedBy = Date.now();

    await api?.stop('SIGKILL');
    api = undefined;
    expect(Date.now() - before).toBeLessThan(3000); // the checks below rely on the 4s TTLs
    expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(200);
    expect((await s.get('/metrics', { token: USER_TOKEN })).status).toBe(403);
    expect((await s.get('/metrics', { cert: mona })).status).toBe(200);
    expect((await s.get('/metrics', { token: 'never-seen' })).status).toBe(401);
    expect((await s.get('/metrics')).status).toBe(500);

    await sleep(Math.max(0, cachedBy + 4100 - Date.now()));
    expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(401);
    expect((await s.get('/metrics', { token: USER_TOKEN })).status).toBe(401);
    // The allowed answer lasts a minute.
    expect((await s.get('/metrics', { cert: mona })).status).toBe(200);
  });
});
