// The same with Jest (ES modules: run jest with NODE_OPTIONS=--experimental-vm-modules):
// `npm install --save-dev keel jest @kubernetes/client-node`.
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { startControlPlane } from 'keel';

let cp;
let core;
beforeAll(async () => {
  cp = await startControlPlane({ nodes: 1 });
  const kc = new KubeConfig();
  kc.loadFromFile(cp.connectionConfig);
  core = kc.makeApiClient(CoreV1Api);
}, 60_000);
afterAll(() => cp?.stop());

test('the official client creates and reads a ConfigMap', async () => {
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'settings' }, data: { mode: 'test' } },
  });
  const cm = await core.readNamespacedConfigMap({ name: 'settings', namespace: 'default' });
  expect(cm.data).toEqual({ mode: 'test' });
});
