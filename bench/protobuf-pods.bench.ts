/**
 * 10,000 realistic Pods (spec and status): a list in JSON against protobuf, request to last
 * byte, and what --storage-media-type costs a list and a create. Two servers share one Redis
 * under different prefixes, one storing JSON and one protobuf, both without the watch cache so
 * each list reads (and decodes) every stored object. Everything alternates within one run.
 * BENCH_PODS and BENCH_ROUNDS change the sizes. The pods have no ownerReferences: the garbage
 * collector would delete pods whose owner does not exist.
 */
import { Agent } from 'node:https';
import { loadProtobuf } from '@keel/protobuf';
import { startRedisServer, TestApiServer } from '@keel/testing';
import { parallel, send } from './support/https-send.js';
import { cpuSeconds } from './support/process-stats.js';

const PODS = Number(process.env['BENCH_PODS'] ?? 10_000);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const CREATES = 400;
const CONCURRENCY = 10;
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/** A pod as a scheduler and kubelet leave it: containers, probes, volumes, conditions, statuses. */
export function realisticPod(name: string, ns: string): Record<string, unknown> {
  const t = '2026-11-26T10:00:00Z';
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: ns,
      labels: { app: 'web', tier: 'frontend', 'pod-template-hash': '7d9f8c6b5' },
      annotations: { 'kubectl.kubernetes.io/default-container': 'web' },
    },
    spec: {
      containers: [
        {
          name: 'web',
          image: 'registry.example/web:1.25.3',
          ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
          env: [
            { name: 'MODE', value: 'production' },
            { name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } },
          ],
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
          readinessProbe: {
            httpGet: { path: '/healthz', port: 8080, scheme: 'HTTP' },
            periodSeconds: 10,
            timeoutSeconds: 1,
            successThreshold: 1,
            failureThreshold: 3,
          },
          volumeMounts: [{ name: 'config', mountPath: '/etc/web', readOnly: true }],
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          imagePullPolicy: 'IfNotPresent',
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'web-config', defaultMode: 420 } }],
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      dnsPolicy: 'ClusterFirst',
      serviceAccountName: 'default',
      nodeName: `node-${name.length % 7}`,
      schedulerName: 'default-scheduler',
      tolerations: [
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 300,
        },
      ],
      priority: 0,
      enableServiceLinks: true,
    },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({
        type,
        status: 'True',
        lastTransitionTime: t,
      })),
      hostIP: '10.0.0.7',
      podIP: '10.244.1.23',
      podIPs: [{ ip: '10.244.1.23' }],
      startTime: t,
      containerStatuses: [
        {
          name: 'web',
          ready: true,
          restartCount: 0,
          started: true,
          image: 'registry.example/web:1.25.3',
          imageID: 'registry.example/web@sha256:' + 'a'.repeat(64),
          containerID: 'containerd://' + 'b'.repeat(64),
          state: { running: { startedAt: t } },
        },
      ],
      qosClass: 'Burstable',
    },
  };
}

interface Fig {
  wallMs: number;
  cpuMs: number;
  bytes: number;
}
async function list(server: TestApiServer, agent: Agent, accept: string): Promise<Fig> {
  const pid = server.process.child.pid;
  const cpu = cpuSeconds(pid);
  const start = process.hrtime.bigint();
  const r = await send(server, agent, 'GET', '/api/v1/namespaces/default/pods', { accept });
  if (r.status !== 200) throw new Error(`list: ${r.status}`);
  return {
    wallMs: Number(process.hrtime.bigint() - start) / 1e6,
    cpuMs: (cpuSeconds(pid) - cpu) * 1000,
    bytes: r.bytes,
  };
}

async function creates(server: TestApiServer, agent: Agent, tag: string): Promise<number> {
  const pid = server.process.child.pid;
  const cpu = cpuSeconds(pid);
  await parallel(CREATES, CONCURRENCY, async (i) => {
    const body = Buffer.from(JSON.stringify(realisticPod(`c-${tag}-${i}`, 'bench-create')));
    const r = await send(
      server,
      agent,
      'POST',
      '/api/v1/namespaces/bench-create/pods',
      { 'content-type': 'application/json' },
      body,
    );
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
  });
  return ((cpuSeconds(pid) - cpu) * 1e6) / CREATES;
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

export async function run(): Promise<void> {
  await loadProtobuf();
  const redis = await startRedisServer();
  const start = (media: string) =>
    TestApiServer.start({
      redisUrl: redis.url,
      args: ['--watch-cache=false', `--storage-media-type=${media}`],
    });
  const servers = {
    json: await start('application/json'),
    proto: await start('application/vnd.platform.protobuf'),
  };
  const agents = new Map<TestApiServer, Agent>();
  for (const s of Object.values(servers))
    agents.set(s, new Agent({ keepAlive: true, maxSockets: CONCURRENCY, ca: s.ca }));
  try {
    for (const s of Object.values(servers)) {
      await s.ready();
      await s.request('POST', '/api/v1/namespaces', { body: { metadata: { name: 'bench-create' } } });
      await parallel(PODS, CONCURRENCY, async (i) => {
        const body = Buffer.from(JSON.stringify(realisticPod(`web-${i}`, 'default')));
        const r = await send(
          s,
          agents.get(s)!,
          'POST',
          '/api/v1/namespaces/default/pods',
          { 'content-type': 'application/json' },
          body,
        );
        if (r.status !== 201) throw new Error(`seed: ${r.status}`);
      });
    }
    const cases = [
      ['JSON storage, JSON response    ', servers.json, 'application/json'],
      ['JSON storage, protobuf response', servers.json, PROTOBUF],
      ['protobuf storage, JSON response', servers.proto, 'application/json'],
      ['protobuf storage, protobuf resp', servers.proto, PROTOBUF],
    ] as const;
    for (const [, s, accept] of cases) await list(s, agents.get(s)!, accept); // warm-up
    const figs = cases.map(() => [] as Fig[]);
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, [, s, accept]] of cases.entries()) figs[i]!.push(await list(s, agents.get(s)!, accept));
    console.log(
      `list of ${PODS} Pods, request to last byte (median of ${ROUNDS} alternating rounds, watch cache off)`,
    );
    for (const [i, [name]] of cases.entries()) {
      const f = figs[i]!;
      console.log(
        `  ${name}: wall ${med(f.map((x) => x.wallMs)).toFixed(0)} ms, server CPU ${med(f.map((x) => x.cpuMs)).toFixed(0)} ms, ${(med(f.map((x) => x.bytes)) / 1e6).toFixed(2)} MB`,
      );
    }
    const jc: number[] = [];
    const pc: number[] = [];
    await creates(servers.json, agents.get(servers.json)!, 'warm-j');
    await creates(servers.proto, agents.get(servers.proto)!, 'warm-p');
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) jc.push(await creates(servers.json, agents.get(servers.json)!, `j${r}`));
      pc.push(await creates(servers.proto, agents.get(servers.proto)!, `p${r}`));
      if (r % 2 === 1) jc.push(await creates(servers.json, agents.get(servers.json)!, `j${r}`));
    }
    console.log(`create of a Pod (JSON body, ${CONCURRENCY} in flight): server CPU per create`);
    console.log(
      `  JSON storage     ${med(jc).toFixed(0)} µs\n  protobuf storage ${med(pc).toFixed(0)} µs (ratio ${(med(pc) / med(jc)).toFixed(2)})`,
    );
  } finally {
    for (const a of agents.values()) a.destroy();
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    await redis.close();
  }
}
