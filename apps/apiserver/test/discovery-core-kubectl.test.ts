/** The real kubectl reads nodes and pods from Keel with nothing but a kubeconfig. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import { startServer, STORES } from './support/events.js';
import { clientConfig, writeManifest, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import {
  bindingBody,
  create,
  expectStatus,
  nodeBody,
  nodePath,
  podBody,
  podPath,
  unique,
} from './support/core.js';

/** A printed table: one array of cells per line (columns are separated by 2+ spaces). */
function table(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
}

describe.each(STORES)('kubectl reads nodes and pods (%s store)', (store) => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  const ns = unique('kubectl');
  const node = unique('node');

  beforeAll(async () => {
    server = await startServer(store);
    cfg = clientConfig(server);
    await create(server, '/api/v1/namespaces', { metadata: { name: ns } });
    await create(
      server,
      nodePath(),
      nodeBody(node, { status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
    );
    await create(server, podPath(ns), podBody('web'));
    await create(server, podPath(ns), podBody('db'));
    await expectStatus(
      server.request('POST', podPath(ns, 'db', 'binding'), { body: bindingBody('db', node) }),
      201,
    );
  });
  afterAll(async () => {
    await server.stop();
  });

  it('kubectl get nodes', async () => {
    const rows = table(await ok('get', 'nodes'));
    expect(rows[0]).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    // A node registers with its status (as a kubelet does).
    expect(rows.find((r) => r[0] === node)?.slice(1, 3)).toEqual(['Ready', '<none>']);
    expect(await ok('get', 'no', node, '-o', 'jsonpath={.metadata.name}')).toBe(node);
  });

  it('kubectl get pods -A and a field selector', async () => {
    const rows = table(await ok('get', 'pods', '-A'));
    expect(rows[0]).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    const mine = rows.filter((r) => r[0] === ns).map((r) => [r[1], r[2], r[3]]);
    expect(mine.sort()).toEqual([
      ['db', '0/1', 'Pending'],
      ['web', '0/1', 'Pending'],
    ]);
    const wide = table(
      await ok('get', 'po', '-n', ns, '-o', 'wide', '--field-selector', `spec.nodeName=${node}`),
    );
    expect(wide.slice(1).map((r) => [r[0], r[6]])).toEqual([['db', node]]);
  });

  it('kubectl create -f a pod manifest and api-resources', async () => {
    const manifest = writeManifest(
      cfg,
      `${ns}-pod.json`,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'from-file', namespace: ns },
        spec: { containers: [{ name: 'c', image: 'registry.example/c:1' }] },
      }),
    );
    expect(await ok('create', '-f', manifest)).toBe('pod/from-file created\n');
    const resources = await ok('api-resources');
    expect(resources).toMatch(/^pods\s+po\s+v1\s+true\s+Pod$/m);
    expect(resources).toMatch(/^nodes\s+no\s+v1\s+false\s+Node$/m);
    expect(resources).toMatch(/^leases\s+coordination\.k8s\.io(\/v1)?\s+true\s+Lease$/m);
  });
});
