import { TestApiServer, TestPKI } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditReceiver, type AuditEventJson } from './support/audit-receiver.js';
import { EVENTS, eventBody } from './support/fixtures.js';
import { openWatch } from './support/http.js';
import { exited, signal } from './support/lifecycle.js';

// The audit webhook end to end: a policy with every level, a real API server, and an HTTPS
// receiver on loopback that records the EventLists it is sent.

const pki = new TestPKI();
afterAll(() => pki.cleanup());

const CMS = '/api/v1/namespaces/default/configmaps';
const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/livez*", "/healthz*"]
- level: RequestResponse
  resources: [{group: "", resources: ["configmaps"]}]
- level: Request
  verbs: ["create"]
  resources: [{group: "events.k8s.io", resources: ["events"]}]
- level: Metadata
  omitStages: ["RequestReceived"]
`;

const policyFile = (text = POLICY) => pki.file(`policy-${Math.random().toString(36).slice(2)}.yaml`, text);
const configMap = (name: string, data: Record<string, string> = { k: 'v' }) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const auditID = (r: { headers: Record<string, string | string[] | undefined> }) =>
  String(r.headers['audit-id']);
const stages = (events: AuditEventJson[]) => events.map((e) => e.stage);

describe('audit webhook: every level', () => {
  let receiver: AuditReceiver;
  let server: TestApiServer;
  beforeAll(async () => {
    receiver = await AuditReceiver.start(pki);
    server = await TestApiServer.start({
      args: [
        `--audit-policy-file=${policyFile()}`,
        `--audit-webhook-config-file=${receiver.kubeconfig(pki.dir)}`,
        '--audit-webhook-batch-max-wait=50ms',
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('RequestResponse: both bodies, the status code, the user and the authorization annotations', async () => {
    const r = await server.request('POST', CMS, {
      body: configMap('rr'),
      headers: { 'user-agent': 'audit-test/1.0', 'x-forwarded-for': '10.1.2.3' },
    });
    expect(r.status).toBe(201);
    const id = auditID(r);
    const events = await receiver
      .until(() => receiver.eventsFor(id).length === 2)
      .then(() => receiver.eventsFor(id));
    expect(stages(events)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [received, complete] = events as [AuditEventJson, AuditEventJson];
    expect(receiver.batches[0]?.path).toBe('/audit');
    expect(receiver.batches[0]?.list).toMatchObject({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1' });
    expect(received).not.toHaveProperty('responseStatus');
    expect(received).not.toHaveProperty('requestObject');
    expect(received.requestReceivedTimestamp).toBe(received.stageTimestamp);
    expect(complete).toMatchObject({
      level: 'RequestResponse',
      verb: 'create',
      requestURI: CMS,
      user: { username: 'admin', uid: 'uid-admin', groups: ['system:masters', 'system:authenticated'] },
      sourceIPs: ['10.1.2.3', '127.0.0.1'],
      userAgent: 'audit-test/1.0',
      objectRef: { resource: 'configmaps', namespace: 'default', name: 'rr', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: configMap('rr'),
      responseObject: { kind: 'ConfigMap', metadata: { name: 'rr', namespace: 'default' }, data: { k: 'v' } },
      annotations: { 'authorization.k8s.io/decision': 'allow', 'authorization.k8s.io/reason': '' },
    });
    expect(complete.objectRef?.['uid']).toBeUndefined();
    expect(complete.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(complete.stageTimestamp >= complete.requestReceivedTimestamp).toBe(true);
  });

  it('a Status answer is copied into responseStatus', async () => {
    const r = await server.request('GET', `${CMS}/missing`);
    expect(r.status).toBe(404);
    const [complete] =
      (await receiver.until(() => receiver.eventsFor(auditID(r)).length === 2)) &&
      receiver.eventsFor(auditID(r)).slice(1);
    expect(complete?.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'configmaps "missing" not found',
      reason: 'NotFound',
      details: { name: 'missing', kind: 'configmaps' },
      code: 404,
    });
    expect(complete?.responseObject).toMatchObject({ kind: 'Status', code: 404 });
  });

  it('Request: the request object but not the response', async () => {
    const r = await server.request('POST', EVENTS, { body: eventBody('req-level') });
    expect(r.status).toBe(201);
    await receiver.until(() => receiver.eventsFor(auditID(r)).length === 2);
    const complete = receiver.eventsFor(auditID(r))[1];
    expect(complete).toMatchObject({
      level: 'Request',
      stage: 'ResponseComplete',
      objectRef: {
        resource: 'events',
        namespace: 'default',
        name: 'req-level',
        apiGroup: 'events.k8s.io',
        apiVersion: 'v1',
      },
      requestObject: { metadata: { name: 'req-level' } },
    });
    expect(complete).not.toHaveProperty('responseObject');
  });

  it('Metadata: no bodies, and RequestReceived omitted by the rule', async () => {
    const r = await server.request('GET', `${EVENTS}/req-level`);
    expect(r.status).toBe(200);
    await receiver.until(() => receiver.eventsFor(auditID(r)).length === 1);
    await new Promise((res) => setTimeout(res, 200));
    const events = receiver.eventsFor(auditID(r));
    expect(stages(events)).toEqual(['ResponseComplete']);
    expect(events[0]).toMatchObject({
      level: 'Metadata',
      verb: 'get',
      responseStatus: { metadata: {}, code: 200 },
    });
    expect(events[0]).not.toHaveProperty('requestObject');
    expect(events[0]).not.toHaveProperty('responseObject');
  });

  it('None: nothing for the health probes; non-resource requests get the lower-case method', async () => {
    const before = receiver.events.length;
    expect((await server.request('GET', '/readyz')).status).toBe(200);
    const v = await server.request('GET', '/version');
    await receiver.until(() => receiver.eventsFor(auditID(v)).length === 1);
    expect(receiver.events.slice(before).map((e) => e.requestURI)).toEqual(['/version']);
    expect(receiver.eventsFor(auditID(v))[0]).toMatchObject({ verb: 'get', level: 'Metadata' });
    expect(receiver.eventsFor(auditID(v))[0]).not.toHaveProperty('objectRef');
  });

  it('a request authentication refused is one ResponseStarted event without a user', async () => {
    const r = await server.request('GET', EVENTS, { token: 'not-a-token' });
    expect(r.status).toBe(401);
    await receiver.until(() => receiver.eventsFor(auditID(r)).length === 1);
    const [event] = receiver.eventsFor(auditID(r));
    expect(event).toMatchObject({
      level: 'Metadata',
      stage: 'ResponseStarted',
      user: {},
      verb: 'list',
      responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 },
    });
    expect(event).not.toHaveProperty('annotations');
  });

  it('a watch has ResponseStarted, then ResponseComplete when it ends', async () => {
    const watch = await openWatch(server, `${EVENTS}?watch=true&timeoutSeconds=1`);
    expect(watch.status).toBe(200);
    const id = String(watch.headers['audit-id']);
    await receiver.until(() => receiver.eventsFor(id).length === 2);
    const events = receiver.eventsFor(id);
    expect(stages(events)).toEqual(['ResponseStarted', 'ResponseComplete']);
    expect(events[0]).toMatchObject({ verb: 'watch', responseStatus: { code: 200 } });
  });
});

describe('audit webhook: delivery', () => {
  let receiver: AuditReceiver;
  beforeAll(async () => {
    receiver = await AuditReceiver.start(pki);
  });
  afterAll(() => receiver.close());

  it('batch mode delivers every buffered event after SIGTERM', async () => {
    receiver.batches.length = 0;
    const server = await TestApiServer.start({
      args: [
        `--audit-policy-file=${policyFile()}`,
        `--audit-webhook-config-file=${receiver.kubeconfig(pki.dir)}`,
        // Nothing is sent before the shutdown: the batch is never full and never waited out.
        '--audit-webhook-batch-max-wait=1h',
        '--audit-webhook-batch-max-size=1000',
        '--audit-webhook-batch-buffer-size=1000',
      ],
    });
    await server.ready();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await server.request('POST', CMS, { body: configMap(`sig-${i}`) });
      expect(r.status).toBe(201);
      ids.push(auditID(r));
    }
    expect(receiver.events).toEqual([]);
    signal(server);
    expect((await exited(server)).code).toBe(0);
    for (const id of ids)
      expect(stages(receiver.eventsFor(id))).toEqual(['RequestReceived', 'ResponseComplete']);
  });

  it('failed sends are retried after the initial backoff', async () => {
    receiver.batches.length = 0;
    receiver.attempts = 0;
    receiver.failNext = 2;
    const server = await TestApiServer.start({
      args: [
        `--audit-policy-file=${policyFile()}`,
        `--audit-webhook-config-file=${receiver.kubeconfig(pki.dir)}`,
        '--audit-webhook-mode=blocking',
        '--audit-webhook-initial-backoff=10ms',
      ],
    });
    try {
      await server.ready();
      const r = await server.request('GET', `${CMS}/x`);
      expect(receiver.eventsFor(auditID(r)).length).toBe(2);
      expect(receiver.attempts).toBe(4);
    } finally {
      await server.stop();
    }
  });

  it('truncation drops the bodies of a large event, drops what is still too large, and splits batches', async () => {
    receiver.batches.length = 0;
    const server = await TestApiServer.start({
      args: [
        `--audit-policy-file=${policyFile()}`,
        `--audit-webhook-config-file=${receiver.kubeconfig(pki.dir)}`,
        '--audit-webhook-batch-max-wait=1h',
        '--audit-webhook-truncate-enabled',
        '--audit-webhook-truncate-max-event-size=3000',
        '--audit-webhook-truncate-max-batch-size=6000',
      ],
    });
    await server.ready();
    const big = await server.request('POST', CMS, { body: configMap('big', { k: 'x'.repeat(5000) }) });
    expect(big.status).toBe(201);
    const long = await server.request('GET', `/version?pad=${'y'.repeat(4000)}`);
    const small: string[] = [];
    for (let i = 0; i < 10; i++) small.push(auditID(await server.request('GET', `${CMS}/small-${i}`)));
    signal(server);
    expect((await exited(server)).code).toBe(0);
    const complete = receiver.eventsFor(auditID(big)).find((e) => e.stage === 'ResponseComplete');
    expect(complete?.annotations).toMatchObject({ 'audit.k8s.io/truncated': 'true' });
    expect(complete).not.toHaveProperty('requestObject');
    expect(complete).not.toHaveProperty('responseObject');
    expect(receiver.eventsFor(auditID(long))).toEqual([]);
    for (const id of small) expect(receiver.eventsFor(id)).toHaveLength(2);
    expect(receiver.batches.length).toBeGreaterThan(1);
    // Each EventList holds at most 6000 bytes of events (plus its own few dozen bytes).
    for (const b of receiver.batches) expect(b.bytes).toBeLessThan(6000 + 200);
  });

  it('--audit-webhook-version=audit.k8s.io/v1beta1 sends v1beta1 events', async () => {
    receiver.batches.length = 0;
    const server = await TestApiServer.start({
      args: [
        `--audit-policy-file=${policyFile()}`,
        `--audit-webhook-config-file=${receiver.kubeconfig(pki.dir)}`,
        '--audit-webhook-mode=blocking',
        '--audit-webhook-version=audit.k8s.io/v1beta1',
      ],
    });
    try {
      await server.ready();
      const r = await server.request('GET', `${CMS}/x`);
      const [event] = receiver.eventsFor(auditID(r)) as unknown as Record<string, unknown>[];
      expect(receiver.batches[0]?.list.apiVersion).toBe('audit.k8s.io/v1beta1');
      expect(event?.['apiVersion']).toBe('audit.k8s.io/v1beta1');
      const seconds = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
      expect((event?.['metadata'] as { creationTimestamp?: string }).creationTimestamp).toMatch(seconds);
      expect(event?.['timestamp']).toMatch(seconds);
    } finally {
      await server.stop();
    }
  });
});
