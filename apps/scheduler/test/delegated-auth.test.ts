import { ADMIN_TOKEN, TestApiServer, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The API server's e2e PKI helper (openssl CLI); @keel/testing has none to share yet.
import { TestPKI } from '@keel/testing';
import {
  connectionConfig,
  forbiddenStatus,
  startScheduler,
  UNAUTHORIZED,
  type RunningScheduler,
} from './delegated-auth-support.js';

// The scheduler's secure port asks a real, built API server who callers are (TokenReview) and
// what they may do (SubjectAccessReview). The API server runs ABAC: members of group
// "monitoring" may read /metrics, nobody else may (alice, the USER_TOKEN, included); the admin
// token is system:masters, which the scheduler lets through without asking.

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });

const pki = new TestPKI();
const clientCA = pki.ca('sched-client-ca');
const otherCA = pki.ca('sched-other-ca');
const proxyCA = pki.ca('sched-front-proxy-ca');
const certs = {
  mona: pki.client(clientCA, 'mona', ['monitoring']),
  otto: pki.client(clientCA, 'otto', ['ops']),
  fromOtherCA: pki.client(otherCA, 'olga', ['monitoring']),
  proxy: pki.client(proxyCA, 'front-proxy'),
  intruder: pki.client(proxyCA, 'intruder'),
};
const policyFile = pki.file(
  'policy.jsonl',
  [policy({ group: 'monitoring', nonResourcePath: '/metrics', readonly: true })].join('\n') + '\n',
);
afterAll(() => pki.cleanup());

const noPolicy = (user: string) =>
  forbiddenStatus(`forbidden: User "${user}" cannot get path "/metrics": No policy matched.`);

describe('keel-scheduler delegated authentication and authorization (built, against a built API server)', () => {
  let api: TestApiServer;
  let cc: string;
  const schedulers: RunningScheduler[] = [];
  const start = async (args: string[]) => {
    const s = await startScheduler([`--connection-config=${cc}`, ...args]);
    schedulers.push(s);
    return s;
  };

  beforeAll(async () => {
    api = await TestApiServer.start({
      args: [
        '--authorization-mode=ABAC',
        `--authorization-policy-file=${policyFile}`,
        `--client-ca-file=${clientCA.certFile}`,
      ],
    });
    await api.ready();
    cc = connectionConfig(pki.dir, api.url, api.ca);
  });
  afterAll(async () => {
    for (const s of schedulers.splice(0)) await s.close();
    await api?.stop();
  });

  describe('with both connection-configs, the client CA looked up and front-proxy flags', () => {
    let s: RunningScheduler;
    beforeAll(async () => {
      s = await start([
        `--authentication-connection-config=${cc}`,
        `--authorization-connection-config=${cc}`,
        `--requestheader-client-ca-file=${proxyCA.certFile}`,
        '--requestheader-allowed-names=front-proxy',
      ]);
    });

    it('serves the always-allow paths to anyone, without asking', async () => {
      expect(await s.get('/healthz')).toMatchObject({ status: 200, text: 'ok' });
      expect(await s.get('/readyz', { token: USER_TOKEN })).toMatchObject({ status: 200 });
    });

    it('forbids /metrics to system:anonymous, with the reason the API server gave', async () => {
      const r = await s.get('/metrics');
      expect(r.status).toBe(403);
      expect(r.json).toEqual(noPolicy('system:anonymous'));
    });

    it('serves /metrics to the admin token (TokenReview says system:masters)', async () => {
      const r = await s.get('/metrics', { token: ADMIN_TOKEN });
      expect(r.status).toBe(200);
      expect(r.text).toContain('# TYPE scheduler_pending_pods gauge');
    });

    it('forbids /metrics to a user the API server does not allow, in kube words', async () => {
      const r = await s.get('/metrics', { token: USER_TOKEN });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(noPolicy('alice'));
    });

    it('answers 401 to a token the API server does not know', async () => {
      const r = await s.get('/metrics', { token: 'no-such-token' });
      expect(r.status).toBe(401);
      expect(r.json).toEqual(UNAUTHORIZED);
      // Bad credentials are never downgraded to anonymous, not even on an always-allow path.
      expect((await s.get('/healthz', { token: 'no-such-token' })).status).toBe(401);
    });

    it('authenticates client certificates from the client CA it looked up (CN user, O groups)', async () => {
      expect((await s.get('/metrics', { cert: certs.mona })).status).toBe(200);
      const r = await s.get('/metrics', { cert: certs.otto });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(noPolicy('otto'));
    });

    it('answers 401 to a certificate no client CA signed', async () => {
      const r = await s.get('/metrics', { cert: certs.fromOtherCA });
      expect(r.status).toBe(401);
    });

    it('believes the front proxy identity headers from an allowed proxy certificate', async () => {
      const asCarol = {
        cert: certs.proxy,
        headers: { 'x-remote-user': 'carol', 'x-remote-group': 'monitoring' },
      };
      expect((await s.get('/metrics', asCarol)).status).toBe(200);
      const asDave = { cert: certs.proxy, headers: { 'x-remote-user': 'dave' } };
      const r = await s.get('/metrics', asDave);
      expect(r.status).toBe(403);
      expect(r.json).toEqual(noPolicy('dave'));
    });

    it('refuses identity headers from a proxy certificate whose name is not allowed', async () => {
      const r = await s.get('/metrics', {
        cert: certs.intruder,
        headers: { 'x-remote-user': 'carol', 'x-remote-group': 'monitoring' },
      });
      expect(r.status).toBe(401);
    });
  });

  describe('with --client-ca-file and --authentication-skip-lookup', () => {
    let s: RunningScheduler;
    beforeAll(async () => {
      s = await start([
        `--authentication-connection-config=${cc}`,
        `--authorization-connection-config=${cc}`,
        `--client-ca-file=${otherCA.certFile}`,
        '--authentication-skip-lookup',
      ]);
    });

    it('authenticates certificates of that CA only', async () => {
      expect((await s.get('/metrics', { cert: certs.fromOtherCA })).status).toBe(200);
      expect((await s.get('/metrics', { cert: certs.mona })).status).toBe(401);
    });

    it('still verifies tokens by TokenReview', async () => {
      expect((await s.get('/metrics', { token: ADMIN_TOKEN })).status).toBe(200);
      expect((await s.get('/metrics', { token: 'no-such-token' })).status).toBe(401);
    });
  });

  describe('without connection-configs', () => {
    let s: RunningScheduler;
    beforeAll(async () => {
      s = await start([]);
    });

    it('warns that tokens are not verified and nothing but the always-allow paths is authorized', () => {
      expect(s.daemon.stderr).toContain(
        'No authentication-connection-config provided, so bearer tokens are not verified',
      );
      expect(s.daemon.stderr).toContain(
        "No authorization-connection-config provided, so SubjectAccessReview of authorization tokens won't work.",
      );
      expect(s.daemon.stderr).toContain(
        'lookup client-ca-file in configmap/extension-apiserver-authentication in platform-system',
      );
    });

    it('treats a bearer token as anonymous and forbids /metrics', async () => {
      expect((await s.get('/healthz', { token: 'anything' })).status).toBe(200);
      const r = await s.get('/metrics', { token: ADMIN_TOKEN });
      expect(r.status).toBe(403);
      expect(r.json).toEqual(
        forbiddenStatus('forbidden: User "system:anonymous" cannot get path "/metrics"'),
      );
    });
  });
});
