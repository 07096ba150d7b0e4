import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNode, schedulerEntry, type DaemonProcess } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ExtenderServer, sentNodeNames } from '../src/extender/testing/extender-server.js';
import { Cluster, eventually, scheduledCounts } from './cluster.js';

// The built apiserver and scheduler, and a real extender on 127.0.0.1 that the scheduler calls
// over HTTP; the extender binds through the API server itself, as real binding extenders do.
let cluster: Cluster;
let dir: string;
const running: DaemonProcess[] = [];
const servers: ExtenderServer[] = [];

beforeAll(async () => {
  cluster = await Cluster.start();
  dir = mkdtempSync(join(tmpdir(), 'keel-extender-e2e-'));
  for (const n of ['e-1', 'e-2', 'e-3']) await cluster.createNode(n, { cpu: '4' });
});
afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
  for (const s of servers.splice(0)) await s.stop();
});

let configs = 0;

/** A scheduler whose configuration file lists these extenders (YAML lines under `extenders:`). */
async function schedulerWith(extenders: string): Promise<DaemonProcess> {
  const path = join(dir, `config-${++configs}.yaml`);
  writeFileSync(
    path,
    'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n' +
      `clientConnection:\n  kubeconfig: ${cluster.kubeconfig}\nleaderElection:\n  leaderElect: false\n` +
      `extenders:\n${extenders}`,
  );
  const d = cluster.scheduler([`--config=${path}`]);
  running.push(d);
  await d.waitFor(/"Starting scheduling"/);
  return d;
}

async function extender(): Promise<ExtenderServer> {
  const s = await ExtenderServer.start();
  servers.push(s);
  return s;
}

async function failedScheduling(ns: string, pod: string): Promise<string> {
  const e = await eventually(
    async () =>
      (await cluster.events(ns)).find((x) => x.reason === 'FailedScheduling' && x.regarding.name === pod),
    20_000,
    `FailedScheduling for ${pod}`,
  );
  return e.note;
}

describe('keel-scheduler with an HTTP extender (built processes)', () => {
  it('filters, prioritizes and binds through the extender', async () => {
    const ns = 'ext-all';
    await cluster.createNamespace(ns);
    const s = (await extender())
      .on('filter', (body) => ({
        Nodes: {
          items: (body['Nodes'] as { items: { metadata: { name: string } }[] }).items.filter(
            (n) => n.metadata.name !== 'e-1',
          ),
        },
        FailedNodes: { 'e-1': 'node(s) are on fire' },
      }))
      .on('prioritize', (body) => sentNodeNames(body).map((n) => ({ Host: n, Score: n === 'e-3' ? 10 : 0 })))
      .on('bind', async (body) => {
        const r = await cluster.api.request(
          'POST',
          `/api/v1/namespaces/${String(body['PodNamespace'])}/pods/${String(body['PodName'])}/binding`,
          {
            body: {
              apiVersion: 'v1',
              kind: 'Binding',
              metadata: { name: body['PodName'], uid: body['PodUID'] },
              target: { kind: 'Node', name: body['Node'] },
            },
          },
        );
        return r.status === 201 ? {} : { Error: `binding failed: ${r.status} ${r.text}` };
      });
    await schedulerWith(
      `- urlPrefix: ${s.url}\n  filterVerb: filter\n  prioritizeVerb: prioritize\n  weight: 5\n  bindVerb: bind\n`,
    );
    const created = await cluster.createPod(ns, 'chosen', { cpu: '100m' });

    const pod = await eventually(async () => {
      const p = await cluster.pod(ns, 'chosen');
      return p.spec.nodeName ? p : undefined;
    });
    expect(pod.spec.nodeName).toBe('e-3');
    expect(s.callsTo('bind').map((c) => c.body)).toEqual([
      { PodName: 'chosen', PodNamespace: ns, PodUID: created.metadata.uid, Node: 'e-3' },
    ]);
    expect(sentNodeNames(s.callsTo('filter')[0]?.body ?? {}).sort()).toEqual(['e-1', 'e-2', 'e-3']);
    expect(sentNodeNames(s.callsTo('prioritize')[0]?.body ?? {}).sort()).toEqual(['e-2', 'e-3']);
    const counts = await eventually(async () => {
      const c = scheduledCounts(await cluster.events(ns));
      return c.has('chosen') && c;
    });
    expect(counts.get('chosen')).toBe(1);
  });

  it('reports the nodes an extender rejected in FailedScheduling', async () => {
    const ns = 'ext-none';
    await cluster.createNamespace(ns);
    const s = (await extender()).on('filter', (body) => ({
      NodeNames: [],
      FailedNodes: Object.fromEntries(sentNodeNames(body).map((n) => [n, 'node(s) are on fire'])),
    }));
    await schedulerWith(`- urlPrefix: ${s.url}\n  filterVerb: filter\n  nodeCacheCapable: true\n`);
    await cluster.createPod(ns, 'homeless', { cpu: '100m' });
    // As kube: the extender's rejections are Unschedulable, so preemption looks for victims too.
    expect(await failedScheduling(ns, 'homeless')).toBe(
      '0/3 nodes are available: 3 node(s) are on fire. preemption: 0/3 nodes are available: ' +
        '3 No preemption victims found for incoming pod..',
    );
    const cond = await eventually(async () =>
      (await cluster.pod(ns, 'homeless')).status?.conditions?.find((c) => c.type === 'PodScheduled'),
    );
    expect(cond).toMatchObject({ status: 'False', reason: 'Unschedulable' });
  });

  it('fails the cycle while a non-ignorable extender is down, and not for an ignorable one', async () => {
    const down = await extender();
    await down.stop();
    servers.splice(servers.indexOf(down), 1);
    const port = new URL(down.url).port;

    const ns = 'ext-down';
    await cluster.createNamespace(ns);
    const d = await schedulerWith(`- urlPrefix: ${down.url}\n  filterVerb: filter\n`);
    await cluster.createPod(ns, 'stuck', { cpu: '100m' });
    expect(await failedScheduling(ns, 'stuck')).toBe(
      `Post "${down.url}/filter": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    const cond = await eventually(async () =>
      (await cluster.pod(ns, 'stuck')).status?.conditions?.find((c) => c.type === 'PodScheduled'),
    );
    expect(cond).toMatchObject({ status: 'False', reason: 'SchedulerError' });
    await d.stop();
    running.splice(running.indexOf(d), 1);

    await schedulerWith(`- urlPrefix: ${down.url}\n  filterVerb: filter\n  ignorable: true\n`);
    const bound = await eventually(async () => (await cluster.pod(ns, 'stuck')).spec.nodeName);
    expect(['e-1', 'e-2', 'e-3']).toContain(bound);
  });
});

describe('keel-scheduler start-up with extenders (built)', () => {
  it.each([
    [
      'a prioritizer without weight',
      '- urlPrefix: http://127.0.0.1:1\n  prioritizeVerb: prioritize\n',
      (path: string) =>
        `Error: ${path}: extenders[0].weight: Invalid value: 0: must have a positive weight applied to it\n`,
    ],
    [
      'an unreadable CA file',
      '- urlPrefix: https://127.0.0.1:1\n  tlsConfig:\n    caFile: /nonexistent/ca.crt\n',
      () => 'Error: extenders[0]: open /nonexistent/ca.crt: no such file or directory\n',
    ],
  ])('refuses %s with one line', async (_name, extenders, want) => {
    const path = join(dir, `config-${++configs}.yaml`);
    writeFileSync(
      path,
      'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n' +
        `clientConnection:\n  kubeconfig: ${cluster.kubeconfig}\nextenders:\n${extenders}`,
    );
    const r = await runNode(schedulerEntry, ['--config', path, '--secure-port=0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(want(path));
  });
});
