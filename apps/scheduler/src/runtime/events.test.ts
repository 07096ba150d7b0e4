import { notFound } from '@keel/apimachinery';
import { discardLogger } from '@keel/log';
import { describe, expect, it } from 'vitest';
import {
  DROP_WARNING_INTERVAL_MS,
  EventBroadcaster,
  LegacyEventRecorder,
  MAX_NOTE_BYTES,
  nanoClock,
  truncateNote,
  type EventClock,
} from './events.js';

/** What the recorder asked the API server to do, in order; `missing` paths answer 404 to a patch. */
class RecordingSink {
  readonly calls: { verb: string; path: string; body: Record<string, unknown> }[] = [];
  readonly missing = new Set<string>();

  create(path: string, body: unknown): Promise<never> {
    this.calls.push({ verb: 'create', path, body: structuredClone(body) as Record<string, unknown> });
    return Promise.resolve(undefined as never);
  }

  patch(path: string, _type: string, body: unknown): Promise<never> {
    this.calls.push({ verb: 'patch', path, body: structuredClone(body) as Record<string, unknown> });
    if (this.missing.has(path))
      return Promise.reject(notFound({ group: 'events.k8s.io', resource: 'events' }, 'x'));
    return Promise.resolve(undefined as never);
  }
}

class TestClock implements EventClock {
  ms = Date.UTC(2024, 4, 6, 7, 8, 9, 123);
  private n = 0x1000n;
  now(): number {
    return this.ms;
  }
  nanos(): bigint {
    return this.n++;
  }
}

const pod = {
  kind: 'Pod',
  apiVersion: 'v1',
  name: 'web',
  namespace: 'team',
  uid: 'u1',
  resourceVersion: '7',
};

function setup() {
  const sink = new RecordingSink();
  const clock = new TestClock();
  const b = new EventBroadcaster({ client: sink, logger: discardLogger, hostname: 'host-1', clock });
  return { sink, clock, b, rec: b.newRecorder('default-scheduler') };
}

describe('EventBroadcaster', () => {
  it('drops events past 1,000 pending writes instead of queueing without bound', () => {
    // A server that accepts the writes and never answers.
    let started = 0;
    const hung = {
      create: () => {
        started++;
        return new Promise<never>(() => undefined);
      },
      patch: () => new Promise<never>(() => undefined),
    };
    const warnings: { msg: string; kv: Record<string, unknown> | undefined }[] = [];
    const logger = {
      ...discardLogger,
      warning: (msg: string, kv?: Record<string, unknown>) => warnings.push({ msg, kv }),
    };
    const clock = new TestClock();
    const b = new EventBroadcaster({ client: hung, logger, hostname: 'h', clock });
    const rec = b.newRecorder('default-scheduler');
    let i = 0;
    const record = (n: number) => {
      for (const end = i + n; i < end; i++)
        rec.eventf(
          { ...pod, name: `p${i}`, uid: `u${i}` },
          'Warning',
          'FailedScheduling',
          'Scheduling',
          'no',
        );
    };
    record(1_005);
    expect(started).toBe(1_000);
    // One line for the first drop, then one per interval with the count since: not one per event.
    expect(warnings).toEqual([
      {
        msg: 'Events dropped: too many event writes pending',
        kv: { dropped: 1, pending: 1_000, event: 'team/p1000.13e8' },
      },
    ]);
    clock.ms += DROP_WARNING_INTERVAL_MS - 1;
    record(3);
    expect(warnings).toHaveLength(1);
    clock.ms += 1;
    record(1);
    expect(warnings.map((w) => w.kv?.['dropped'])).toEqual([1, 8]);
  });

  it('creates an events.k8s.io/v1 Event about the object', async () => {
    const { sink, b, rec } = setup();
    rec.eventf(pod, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned team/web to n1');
    await b.flush();
    expect(sink.calls).toEqual([
      {
        verb: 'create',
        path: '/apis/events.k8s.io/v1/namespaces/team/events',
        body: {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name: 'web.1000', namespace: 'team' },
          eventTime: '2024-05-06T07:08:09.123000Z',
          reportingController: 'default-scheduler',
          reportingInstance: 'default-scheduler-host-1',
          action: 'Binding',
          reason: 'Scheduled',
          regarding: pod,
          note: 'Successfully assigned team/web to n1',
          type: 'Normal',
        },
      },
    ]);
  });

  it('turns repeats into a series: patched on the second, counted until the refresh', async () => {
    const { sink, clock, b, rec } = setup();
    const fail = () =>
      rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', '0/1 nodes are available');
    fail();
    clock.ms += 1000;
    fail();
    clock.ms += 1000;
    fail();
    await b.flush();
    expect(sink.calls.map((c) => `${c.verb} ${c.path}`)).toEqual([
      'create /apis/events.k8s.io/v1/namespaces/team/events',
      'patch /apis/events.k8s.io/v1/namespaces/team/events/web.1000',
    ]);
    expect(sink.calls[1]?.body).toEqual({
      series: { count: 2, lastObservedTime: '2024-05-06T07:08:10.123000Z' },
    });
    b.refreshSeries();
    await b.flush();
    expect(sink.calls[2]?.body).toEqual({
      series: { count: 3, lastObservedTime: '2024-05-06T07:08:11.123000Z' },
    });
  });

  it('keeps different notes apart and starts afresh after the series finished', async () => {
    const { sink, clock, b, rec } = setup();
    rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'a');
    rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'b');
    clock.ms += 6 * 60_000;
    b.finishSeries();
    rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'a');
    await b.flush();
    expect(sink.calls.map((c) => `${c.verb} ${(c.body['note'] as string | undefined) ?? ''}`)).toEqual([
      'create a',
      'create b',
      'create a',
    ]);
  });

  it('creates the event again when the series patch finds it gone', async () => {
    const { sink, b, rec } = setup();
    sink.missing.add('/apis/events.k8s.io/v1/namespaces/team/events/web.1000');
    rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'm');
    rec.eventf(pod, 'Warning', 'FailedScheduling', 'Scheduling', 'm');
    await b.flush();
    expect(sink.calls.map((c) => c.verb)).toEqual(['create', 'patch', 'create']);
    expect(sink.calls[2]?.body).toMatchObject({ metadata: { name: 'web.1000' }, series: { count: 2 } });
  });
});

describe('truncateNote', () => {
  it('cuts notes over 1 kB to 1 kB ending in ...', () => {
    expect(truncateNote('short')).toBe('short');
    const long = truncateNote('é'.repeat(1000));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(MAX_NOTE_BYTES);
    expect(long.endsWith('é...')).toBe(true);
  });
});

describe('nanoClock', () => {
  it('never repeats a value', () => {
    const next = nanoClock();
    const seen = new Set(Array.from({ length: 1000 }, () => next()));
    expect(seen.size).toBe(1000);
  });
});

describe('LegacyEventRecorder', () => {
  it('writes a core/v1 Event about the lease, as the legacy recorder does', async () => {
    const sink = new RecordingSink();
    const r = new LegacyEventRecorder(sink, 'default-scheduler', discardLogger, new TestClock());
    r.event(
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: {
          name: 'platform-scheduler',
          namespace: 'platform-system',
          uid: 'l1',
          resourceVersion: '9',
        },
      },
      'Normal',
      'LeaderElection',
      'host_123 became leader',
    );
    await r.flush();
    expect(sink.calls).toEqual([
      {
        verb: 'create',
        path: '/api/v1/namespaces/platform-system/events',
        body: {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: 'platform-scheduler.1000', namespace: 'platform-system' },
          involvedObject: {
            kind: 'Lease',
            apiVersion: 'coordination.k8s.io/v1',
            name: 'platform-scheduler',
            namespace: 'platform-system',
            uid: 'l1',
            resourceVersion: '9',
          },
          reason: 'LeaderElection',
          message: 'host_123 became leader',
          source: { component: 'default-scheduler' },
          firstTimestamp: '2024-05-06T07:08:09Z',
          lastTimestamp: '2024-05-06T07:08:09Z',
          count: 1,
          type: 'Normal',
          eventTime: null,
          reportingComponent: 'default-scheduler',
          reportingInstance: '',
        },
      },
    ]);
  });
});
