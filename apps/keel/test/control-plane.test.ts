import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from '../src/control-plane.js';
import { httpsJson } from '../src/https-json.js';

// What startControlPlane() promises once it resolves, looked at at that very moment: a test may
// create its pods at once and have them bound without waiting for either daemon.
let cp: ControlPlane;
let lease: { status: number; body: unknown };
let readyz: { status: number; body: unknown };

beforeAll(async () => {
  cp = await startControlPlane();
  const get = (path: string) => httpsJson(cp.url + path, { ca: cp.ca, token: cp.token });
  [lease, readyz] = await Promise.all([
    get('/apis/coordination.k8s.io/v1/namespaces/platform-system/leases/platform-scheduler'),
    get('/readyz?verbose'),
  ]);
}, 60_000);
afterAll(async () => {
  await cp?.stop();
});

describe('startControlPlane() resolved', () => {
  it('has an API server past every post-start hook, the default RBAC policy among them', () => {
    expect(readyz.status).toBe(200);
    expect(String(readyz.body)).toContain('[+]poststarthook/rbac/bootstrap-roles ok');
  });

  it('has a scheduler that holds its lease (it leads, its caches synced)', () => {
    expect(lease.status).toBe(200);
    const spec = (lease.body as { spec?: { holderIdentity?: string } }).spec;
    expect(spec?.holderIdentity ?? '').not.toBe('');
  });
});
