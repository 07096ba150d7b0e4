// A Vitest suite that runs against a real Keel control plane: `npm install --save-dev keel vitest`.
// startControlPlane() resolves once the API server and the scheduler are ready and the fake nodes
// exist; the connection-config it writes works for kubectl and every official client.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from 'keel';

let cp: ControlPlane;
beforeAll(async () => {
  cp = await startControlPlane({ nodes: 3 });
}, 60_000);
afterAll(() => cp?.stop());

const kubectl = (...args: string[]) =>
  execFileSync('kubectl', [`--kubeconfig=${cp.connectionConfig}`, ...args], { encoding: 'utf8' });

it('schedules a pod onto one of the fake nodes', async () => {
  kubectl('run', 'hello', '--image=busybox', '--restart=Never');
  let node = '';
  for (let i = 0; i < 100 && node === ''; i++) {
    await new Promise((r) => setTimeout(r, 100));
    node = kubectl('get', 'pod', 'hello', '-o', 'jsonpath={.spec.nodeName}');
  }
  expect(cp.nodes).toContain(node);
});
