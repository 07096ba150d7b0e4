import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { buildSinks, type AuditEvent, type BatchOptions, type LogSinkOptions } from './index.js';

// The modes through the public builder, writing real files.

const dir = mkdtempSync(join(tmpdir(), 'keel-audit-sinks-'));
let n = 0;
const errors: string[] = [];
const log = { error: (msg: string) => errors.push(msg) };

const event = (i: number): AuditEvent => ({
  level: 'Metadata',
  auditID: `id-${i}`,
  stage: 'ResponseComplete',
  requestURI: '/version',
  verb: 'get',
  user: { username: 'u' },
  requestReceivedTimestamp: { seconds: 1_700_000_000, micros: 0 },
  stageTimestamp: { seconds: 1_700_000_000, micros: 1 },
});

function logSink(opts: Partial<LogSinkOptions> & { batch?: BatchOptions }) {
  const path = opts.path ?? join(dir, `audit-${n++}.log`);
  const sink = buildSinks(
    {
      log: {
        mode: 'batch',
        batch: undefined,
        truncate: undefined,
        version: 'audit.k8s.io/v1',
        format: 'json',
        rotation: { maxSizeBytes: 100 * 1024 * 1024, maxBackups: 0, maxAgeDays: 0, compress: false },
        ...opts,
        path,
      },
      webhook: undefined,
    },
    log,
  );
  if (!sink) throw new Error('no sink');
  const lines = () =>
    existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => (JSON.parse(l) as { auditID: string }).auditID)
      : [];
  return { sink, lines };
}

const batch = (o: Partial<BatchOptions>): BatchOptions => ({
  bufferSize: 100,
  maxBatchSize: 1,
  maxBatchWaitMs: 3_600_000,
  throttle: undefined,
  ...o,
});

describe('batch mode', () => {
  it('a full buffer drops new events (and says so) instead of blocking', async () => {
    const { sink, lines } = logSink({ batch: batch({ bufferSize: 2, throttle: { qps: 1, burst: 1 } }) });
    errors.length = 0;
    // All at once: the first is waiting for its throttle token while the others arrive.
    const accepted = await Promise.all([0, 1, 2, 3, 4].map((i) => sink.process([event(i)])));
    expect(accepted).toEqual([true, true, true, true, true]);
    await sink.shutdown();
    expect(lines()).toEqual(['id-0', 'id-1']);
    expect(errors).toEqual(['Audit buffer queue blocked: dropping events']);
  });

  it('throttling sends only the burst at once; the rest follows, all of it by shutdown', async () => {
    const { sink, lines } = logSink({ batch: batch({ throttle: { qps: 1, burst: 1 } }) });
    for (let i = 0; i < 3; i++) await sink.process([event(i)]);
    await sleep(200);
    // The next token is a second away.
    expect(lines()).toEqual(['id-0']);
    await sink.shutdown();
    expect(lines()).toEqual(['id-0', 'id-1', 'id-2']);
  });

  it('a full batch goes at once, a short one after max wait', async () => {
    const { sink, lines } = logSink({ batch: batch({ maxBatchSize: 2, maxBatchWaitMs: 300 }) });
    for (let i = 0; i < 3; i++) await sink.process([event(i)]);
    await sleep(100);
    expect(lines()).toEqual(['id-0', 'id-1']);
    await sleep(600);
    expect(lines()).toEqual(['id-0', 'id-1', 'id-2']);
    await sink.shutdown();
  });

  it('a short batch after a full one still goes out after max wait', async () => {
    const { sink, lines } = logSink({ batch: batch({ maxBatchSize: 2, maxBatchWaitMs: 150 }) });
    await sink.process([event(0)]);
    await sink.process([event(1)]);
    await sleep(300);
    expect(lines()).toEqual(['id-0', 'id-1']);
    await sink.process([event(2)]);
    await sleep(400);
    expect(lines()).toEqual(['id-0', 'id-1', 'id-2']);
    await sink.shutdown();
  });

  it('max wait zero sends every event without waiting for a batch to fill', async () => {
    const { sink, lines } = logSink({ batch: batch({ maxBatchSize: 100, maxBatchWaitMs: 0 }) });
    await sink.process([event(0)]);
    await sleep(50);
    expect(lines()).toEqual(['id-0']);
    await sink.shutdown();
  });

  it('shutdown writes what max wait still holds back', async () => {
    const { sink, lines } = logSink({ batch: batch({ maxBatchSize: 10 }) });
    for (let i = 0; i < 4; i++) await sink.process([event(i)]);
    expect(lines()).toEqual([]);
    await sink.shutdown();
    expect(lines()).toEqual(['id-0', 'id-1', 'id-2', 'id-3']);
  });
});

describe('blocking modes', () => {
  it('blocking-strict reports a failed write; blocking logs it and carries on', async () => {
    // Every write to /dev/full fails with ENOSPC.
    const strict = logSink({ path: '/dev/full', mode: 'blocking-strict' });
    expect(await strict.sink.process([event(1)])).toBe(false);
    await strict.sink.shutdown();
    errors.length = 0;
    const lenient = logSink({ path: '/dev/full', mode: 'blocking' });
    expect(await lenient.sink.process([event(1)])).toBe(true);
    expect(errors).toEqual(['Failed to write audit events']);
    await lenient.sink.shutdown();
  });

  it('blocking writes before it resolves', async () => {
    const { sink, lines } = logSink({ mode: 'blocking' });
    await sink.process([event(7)]);
    expect(lines()).toEqual(['id-7']);
    await sink.shutdown();
  });

  it('concurrent requests share file writes yet keep their order, and each learns its own outcome', async () => {
    const { sink, lines } = logSink({ mode: 'blocking-strict' });
    const ids = Array.from({ length: 50 }, (_, i) => i);
    expect(await Promise.all(ids.map((i) => sink.process([event(i)])))).toEqual(ids.map(() => true));
    expect(lines()).toEqual(ids.map((i) => `id-${i}`));
    await sink.shutdown();
  });

  it('a line longer than the file may grow fails its own request, not those written with it', async () => {
    const { sink, lines } = logSink({
      mode: 'blocking-strict',
      rotation: { maxSizeBytes: 1000, maxBackups: 0, maxAgeDays: 0, compress: false },
    });
    const long: AuditEvent = { ...event(99), requestURI: `/${'x'.repeat(1200)}` };
    const outcomes = await Promise.all([
      sink.process([event(1)]),
      sink.process([event(2)]),
      sink.process([long]),
      sink.process([event(3)]),
    ]);
    expect(outcomes).toEqual([true, true, false, true]);
    expect(lines()).toEqual(['id-1', 'id-2', 'id-3']);
    await sink.shutdown();
  });
});
