/**
 * The audit, admission and watch metrics on GET /metrics, through the built daemon: kube's names
 * and labels, and the Metrics flags applied to them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApiServer, TestPKI, TestWebhookServer, type TestCert } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, createConfig, eventually, podWebhook } from './support/admission-webhooks.js';
import { podBody, podPath, unique } from './support/core.js';
import { uniqueNs, WatchStream } from './support/events.js';

/** The value of the one sample of `metric` whose labels include all of `labels`; undefined when none. */
function sample(text: string, metric: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== metric) continue;
    const have = new Map(
      [...(m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v)) return Number(m[3]);
  }
  return undefined;
}

const running: TestApiServer[] = [];
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

async function start(args: string[]): Promise<TestApiServer> {
  const server = await TestApiServer.start({ args });
  running.push(server);
  await server.ready();
  return server;
}

async function scrape(server: TestApiServer): Promise<string> {
  const r = await server.request('GET', '/metrics');
  expect(r.status).toBe(200);
  return r.text;
}

const dir = mkdtempSync(join(tmpdir(), 'keel-metrics-audit-'));
/** Everything at Metadata except the probes and the scrapes, so a broken sink still lets tests read. */
const policyFile = join(dir, 'policy.yaml');
writeFileSync(
  policyFile,
  `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/readyz*", "/livez*", "/healthz*", "/metrics"]
- level: Metadata
`,
);

const createConfigMap = (server: TestApiServer, ns: string, name: string) =>
  server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { metadata: { name } } });

describe('audit metrics', () => {
  it('apiserver_audit_event_total counts every stage sent to the sinks', async () => {
    const server = await start([
      `--audit-policy-file=${policyFile}`,
      `--audit-log-path=${join(dir, 'a.log')}`,
    ]);
    const before = sample(await scrape(server), 'apiserver_audit_event_total') ?? 0;
    for (const name of ['a', 'b', 'c'])
      expect((await createConfigMap(server, 'default', name)).status).toBe(201);
    const text = await scrape(server);
    // RequestReceived and ResponseComplete of each create; other requests may be audited too.
    expect(sample(text, 'apiserver_audit_event_total')).toBeGreaterThanOrEqual(before + 6);
    expect(sample(text, 'apiserver_audit_requests_rejected_total')).toBe(0);
    expect(sample(text, 'apiserver_audit_error_total')).toBeUndefined();
  });

  it('blocking-strict: a refused request counts in apiserver_audit_requests_rejected_total, the lost event in apiserver_audit_error_total{plugin="log"}', async () => {
    // Every write to /dev/full fails with ENOSPC.
    const server = await start([
      `--audit-policy-file=${policyFile}`,
      '--audit-log-path=/dev/full',
      '--audit-log-mode=blocking-strict',
    ]);
    expect((await server.request('GET', '/api/v1/namespaces/default/configmaps')).status).toBe(500);
    const text = await scrape(server);
    expect(sample(text, 'apiserver_audit_requests_rejected_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'apiserver_audit_error_total', { plugin: 'log' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'apiserver_audit_event_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('admission metrics with AlwaysDeny', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await start([
      '--enable-admission-plugins=AlwaysDeny',
      // Only AlwaysDeny keeps its name; every other plugin reads "unexpected".
      "--allow-metric-labels=apiserver_admission_controller_admission_duration_seconds,name='AlwaysDeny'",
      '--disabled-metrics=apiserver_admission_webhook_admission_duration_seconds',
    ]);
  });

  it('times the refused step and the plugin that refused, rejected="true"', async () => {
    const res = await createConfigMap(server, 'default', unique('denied'));
    expect(res.status).toBe(403);
    const text = await scrape(server);
    const refused = { type: 'admit', operation: 'CREATE', rejected: 'true' };
    expect(sample(text, 'apiserver_admission_step_admission_duration_seconds_count', refused)).toBe(1);
    expect(
      sample(text, 'apiserver_admission_controller_admission_duration_seconds_count', {
        ...refused,
        name: 'AlwaysDeny',
      }),
    ).toBe(1);
    // The mutating plugins before it let the write through.
    expect(
      sample(text, 'apiserver_admission_controller_admission_duration_seconds_count', {
        type: 'admit',
        operation: 'CREATE',
        rejected: 'false',
        name: 'unexpected',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'apiserver_admission_controller_admission_duration_seconds_count', {
        name: 'NamespaceLifecycle',
      }),
    ).toBeUndefined();
    // The validating step never ran: the write was refused in the mutating one.
    expect(
      sample(text, 'apiserver_admission_step_admission_duration_seconds_count', { type: 'validate' }),
    ).toBeUndefined();
    expect(text).toMatch(
      /^apiserver_admission_step_admission_duration_seconds_bucket\{le="2\.5",type="admit",operation="CREATE",rejected="true"\} 1$/m,
    );
    expect(text).not.toContain('apiserver_admission_webhook_admission_duration_seconds');
  });
});

describe('webhook admission metrics', () => {
  const pki = new TestPKI();
  let ca: TestCert;
  let hook: TestWebhookServer;
  let server: TestApiServer;

  beforeAll(async () => {
    ca = pki.ca('metrics-webhook-ca');
    const serving = pki.leaf(ca, { cn: 'localhost', usage: 'server', hosts: ['127.0.0.1'] });
    hook = await TestWebhookServer.start(serving, (call) => {
      const request = ((call.body as Record<string, unknown>)['request'] ?? {}) as Record<string, unknown>;
      const name = (request['object'] as { metadata?: { name?: string } } | null)?.metadata?.name ?? '';
      return answer(
        call,
        name.startsWith('refused-') ? { allowed: false, status: { code: 422, message: 'not this one' } } : {},
      );
    });
    server = await start([]);
  });
  afterAll(async () => {
    await hook.stop();
    pki.cleanup();
  });

  it('times each call under the webhook name and counts its refusals', async () => {
    const id = unique('metrics');
    await createConfig(server, 'Validating', id, [
      podWebhook('check.metrics.keel.test', hook.url('/validate'), ca.certPem, id),
    ]);
    const admitted = await eventually(
      () =>
        server.request('POST', podPath('default'), {
          body: podBody(unique('ok'), {}, { labels: { test: id } }),
        }),
      () => hook.calls.length > 0,
    );
    expect(admitted.status, admitted.text).toBe(201);
    const refused = await server.request('POST', podPath('default'), {
      body: podBody(unique('refused'), {}, { labels: { test: id } }),
    });
    expect(refused.status, refused.text).toBe(422);

    const text = await scrape(server);
    const base = { name: 'check.metrics.keel.test', type: 'validating', operation: 'CREATE' };
    expect(
      sample(text, 'apiserver_admission_webhook_admission_duration_seconds_count', {
        ...base,
        rejected: 'false',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'apiserver_admission_webhook_admission_duration_seconds_count', {
        ...base,
        rejected: 'true',
      }),
    ).toBe(1);
    expect(
      sample(text, 'apiserver_admission_webhook_rejection_count', {
        ...base,
        error_type: 'no_error',
        rejection_code: '422',
      }),
    ).toBe(1);
    // The plugin that called it is timed as a controller, and refused the write.
    expect(
      sample(text, 'apiserver_admission_controller_admission_duration_seconds_count', {
        name: 'ValidatingAdmissionWebhook',
        type: 'validate',
        operation: 'CREATE',
        rejected: 'true',
      }),
    ).toBe(1);
  });
});

describe('watch metrics', () => {
  it('apiserver_watch_events_total and apiserver_watch_events_sizes count the events a watch sends', async () => {
    const server = await start([]);
    const ns = uniqueNs('watch');
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    // Selected by label: the namespace's own root CA ConfigMap is not sent.
    const watch = await WatchStream.open(
      server,
      `/api/v1/namespaces/${ns}/configmaps?watch=true&labelSelector=metrics%3Dyes`,
    );
    expect(watch.status).toBe(200);
    const labels = { group: '', version: 'v1', resource: 'configmaps' };
    const count = async () => sample(await scrape(server), 'apiserver_watch_events_total', labels);
    // The series exists from the moment a watch of the resource opens.
    expect(await count()).toBe(0);
    const create = (name: string, data: Record<string, string>) =>
      server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: { metadata: { name, labels: { metrics: 'yes' } }, data },
      });
    expect((await create('small', {})).status).toBe(201);
    expect((await create('big', { k: 'x'.repeat(5000) })).status).toBe(201);
    await watch.take(2);
    await expect.poll(count).toBe(2);
    const text = await scrape(server);
    expect(sample(text, 'apiserver_watch_events_sizes_count', labels)).toBe(2);
    // The small event is under 1 KiB; the big one between 4 and 8 KiB.
    expect(sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '1024' })).toBe(1);
    expect(sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '4096' })).toBe(1);
    expect(sample(text, 'apiserver_watch_events_sizes_bucket', { ...labels, le: '8192' })).toBe(2);
    expect(sample(text, 'apiserver_watch_events_sizes_sum', labels)).toBeGreaterThan(5000);
  });
});
