import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildSinks,
  RequestAudit,
  type AuditEvent,
  type AuditMetrics,
  type LogSinkOptions,
  type Sink,
} from './index.js';

// What the audit reports to the server's metrics: events handed to the sinks, and events lost,
// by the plugin that lost them.

function recording(): AuditMetrics & { sent: number; errors: Record<string, number> } {
  const m = {
    sent: 0,
    errors: {} as Record<string, number>,
    eventSent: () => void m.sent++,
    pluginError: (plugin: string, count: number) => void (m.errors[plugin] = (m.errors[plugin] ?? 0) + count),
  };
  return m;
}

const dir = mkdtempSync(join(tmpdir(), 'keel-audit-metrics-'));
let files = 0;
const quiet = { error: () => undefined };

const event = (i: number, over: Partial<AuditEvent> = {}): AuditEvent => ({
  level: 'Metadata',
  auditID: `id-${i}`,
  stage: 'ResponseComplete',
  requestURI: '/version',
  verb: 'get',
  user: { username: 'u' },
  requestReceivedTimestamp: { seconds: 1_700_000_000, micros: 0 },
  stageTimestamp: { seconds: 1_700_000_000, micros: 1 },
  ...over,
});

function logSink(metrics: AuditMetrics, opts: Partial<LogSinkOptions>): Sink {
  const sink = buildSinks(
    {
      log: {
        mode: 'blocking',
        batch: undefined,
        truncate: undefined,
        version: 'audit.k8s.io/v1',
        format: 'json',
        rotation: { maxSizeBytes: 100 * 1024 * 1024, maxBackups: 0, maxAgeDays: 0, compress: false },
        path: join(dir, `audit-${files++}.log`),
        ...opts,
      },
      webhook: undefined,
    },
    quiet,
    metrics,
  );
  if (!sink) throw new Error('no sink');
  return sink;
}

describe('audit metrics', () => {
  it('counts one event per stage handed to the sinks, none for an omitted stage', async () => {
    const m = recording();
    const sink: Sink = { process: () => Promise.resolve(true), shutdown: () => Promise.resolve() };
    const a = new RequestAudit(
      {
        auditID: 'a1',
        requestURI: '/api/v1/configmaps',
        verb: 'list',
        user: { name: 'jane', uid: '', groups: [], extra: {} },
        sourceIPs: [],
        userAgent: '',
        received: { seconds: 1, micros: 0 },
        objectRef: undefined,
      },
      { level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: false },
      sink,
      m,
    );
    await a.received();
    await a.complete(200);
    expect(m.sent).toBe(1);
  });

  it('a write the backend fails counts its events under the backend: log', async () => {
    const m = recording();
    // Every write to /dev/full fails with ENOSPC.
    const sink = logSink(m, { path: '/dev/full', mode: 'blocking-strict' });
    expect(await sink.process([event(1)])).toBe(false);
    const batched = logSink(m, {
      path: '/dev/full',
      mode: 'batch',
      batch: { bufferSize: 10, maxBatchSize: 3, maxBatchWaitMs: 3_600_000, throttle: undefined },
    });
    await batched.process([event(2), event(3), event(4)]);
    await batched.shutdown();
    await sink.shutdown();
    expect(m.errors).toEqual({ log: 4 });
  });

  it('events a full batch buffer drops count as buffered', async () => {
    const m = recording();
    const sink = logSink(m, {
      mode: 'batch',
      batch: { bufferSize: 2, maxBatchSize: 100, maxBatchWaitMs: 3_600_000, throttle: undefined },
    });
    await sink.process([event(1), event(2), event(3), event(4), event(5)]);
    await sink.shutdown();
    expect(m.errors).toEqual({ buffered: 3 });
  });

  it('an event truncation cannot make small enough counts as truncate', async () => {
    const m = recording();
    const sink = logSink(m, { truncate: { maxEventSize: 400, maxBatchSize: 10_000 } });
    await sink.process([event(1), event(2, { requestURI: `/${'x'.repeat(1000)}` })]);
    await sink.shutdown();
    expect(m.errors).toEqual({ truncate: 1 });
  });
});
