import { httpsJson } from './https-json.js';

/**
 * Registers `count` nodes that report Ready with room for pods, as kwok's fake nodes do, so the
 * scheduler binds pods at once. No nodeagent runs: pods are bound, never started.
 */
export async function registerFakeNodes(
  url: string,
  ca: string,
  token: string,
  count: number,
): Promise<string[]> {
  const names: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `keel-node-${i}`;
    const resources = { cpu: '8', memory: '32Gi', pods: '110', 'ephemeral-storage': '100Gi' };
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          type: 'keel-fake',
        },
        annotations: { 'keel.dev/fake-node': 'true' },
      },
      status: {
        capacity: resources,
        allocatable: resources,
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KeelFakeNode', message: 'registered by keel up' },
        ],
        addresses: [
          { type: 'InternalIP', address: `10.240.0.${i}` },
          { type: 'Hostname', address: name },
        ],
        nodeInfo: { architecture: 'amd64', operatingSystem: 'linux', kubeletVersion: 'keel-fake' },
      },
    };
    const r = await httpsJson(`${url}/api/v1/nodes`, { method: 'POST', ca, token, body: node });
    if (r.status !== 201 && r.status !== 409)
      throw new Error(`registering node ${name}: ${r.status} ${JSON.stringify(r.body)}`);
    names.push(name);
  }
  return names;
}
