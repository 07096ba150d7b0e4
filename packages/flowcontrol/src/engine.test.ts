import { describe, expect, it } from 'vitest';
import {
  mandatoryFlowSchemas,
  suggestedFlowSchemas,
  suggestedPriorityLevelConfigurations,
} from './bootstrap.js';
import { FlowController } from './controller.js';
import type { RequestDigest } from './match.js';
import { QueueSet, type RejectReason, type Ticket } from './queueset.js';
import { dealHand, hashFlow } from './shuffle-sharding.js';
import { allocate, SeatDemand, SeatDemandStats } from './borrowing.js';

describe('shuffle sharding', () => {
  it('deals the same distinct hand for the same flow, different hands for different flows', () => {
    const a = dealHand(hashFlow('global-default', 'alice'), 128, 6);
    expect(dealHand(hashFlow('global-default', 'alice'), 128, 6)).toEqual(a);
    expect(new Set(a).size).toBe(6);
    expect(a.every((c) => c >= 0 && c < 128)).toBe(true);
    expect(dealHand(hashFlow('global-default', 'bob'), 128, 6)).not.toEqual(a);
  });

  it('deals upstream’s mixed-radix hand', () => {
    // 13 = 1 + 4*(0 + 3*1): remainders 1 (of 4), 0 (of 3), 1 (of 2); the last skips cards 0 and 1 → 3.
    expect(dealHand(13n, 4, 3)).toEqual([1, 0, 3]);
    expect(dealHand(0n, 4, 4)).toEqual([0, 1, 2, 3]);
  });
});

interface Run {
  ticket: Ticket;
  state: 'waiting' | 'running' | 'done' | RejectReason;
}
function submit(qs: QueueSet, flow: string, log: string[], seats = 1): Run {
  const run: Run = { ticket: undefined as unknown as Ticket, state: 'waiting' };
  run.ticket = qs.start(
    hashFlow('fs', flow),
    {
      dispatch: () => {
        run.state = 'running';
        log.push(flow);
      },
      reject: (r) => (run.state = r),
    },
    { seats, flowSchema: 'fs', distinguisher: flow, arrived: 0 },
  );
  return run;
}

describe('QueueSet', () => {
  it('serves a quiet flow in turn with a flooding one', () => {
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 64, handSize: 6, queueLengthLimit: 1000 });
    const log: string[] = [];
    const runs = [...Array.from({ length: 200 }, () => submit(qs, 'noisy', log))];
    runs.push(...Array.from({ length: 5 }, () => submit(qs, 'quiet', log)));
    // Finish requests one by one: each freed seat goes to the queue with the lowest virtual start.
    for (let i = 0; i < 20; i++) {
      const running = runs.find((r) => r.state === 'running');
      if (!running) break;
      running.state = 'done';
      running.ticket.finish();
    }
    const firstTwenty = log.slice(0, 21);
    expect(firstTwenty.filter((f) => f === 'quiet')).toHaveLength(5);
    expect(qs.executing).toBe(1);
  });

  it('rejects with queue-full over queueLengthLimit and concurrency-limit without queues', () => {
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 1, handSize: 1, queueLengthLimit: 2 });
    const log: string[] = [];
    const runs = Array.from({ length: 4 }, () => submit(qs, 'a', log));
    expect(runs.map((r) => r.state)).toEqual(['running', 'waiting', 'waiting', 'queue-full']);
    const reject = new QueueSet({ concurrencyLimit: 1, queues: 0, handSize: 0, queueLengthLimit: 0 });
    expect([submit(reject, 'a', log).state, submit(reject, 'b', log).state]).toEqual([
      'running',
      'concurrency-limit',
    ]);
  });

  it('dispatches a wide request once its seats are free, one wider than the limit when idle', () => {
    const qs = new QueueSet({ concurrencyLimit: 2, queues: 1, handSize: 1, queueLengthLimit: 10 });
    const log: string[] = [];
    const one = submit(qs, 'a', log);
    const wide = submit(qs, 'a', log, 2);
    const after = submit(qs, 'a', log);
    // The wide request heads the queue with one seat free: it and the one behind it wait.
    expect([one.state, wide.state, after.state]).toEqual(['running', 'waiting', 'waiting']);
    expect(qs.waitingSeats).toBe(3);
    one.ticket.finish();
    expect([wide.state, after.state, String(qs.seatsInUse)]).toEqual(['running', 'waiting', '2']);
    wide.ticket.finish();
    expect(after.state).toBe('running');
    after.ticket.finish();
    const huge = submit(qs, 'a', log, 5);
    expect([huge.state, String(qs.seatsInUse)]).toEqual(['running', '5']);
    expect(submit(qs, 'a', log).state).toBe('waiting');
  });

  it('takes a cancelled request out of its queue', () => {
    const qs = new QueueSet({ concurrencyLimit: 1, queues: 4, handSize: 2, queueLengthLimit: 5 });
    const log: string[] = [];
    const first = submit(qs, 'a', log);
    const second = submit(qs, 'a', log);
    expect(second.ticket.cancel('time-out')).toBe(true);
    expect(second.state).toBe('time-out');
    expect(qs.waiting).toBe(0);
    first.ticket.finish();
    expect(qs.executing).toBe(0);
  });
});

const digest = (name: string, groups: string[], extra: Partial<RequestDigest> = {}): RequestDigest => ({
  user: { name, groups },
  isResourceRequest: true,
  verb: 'create',
  apiGroup: '',
  resource: 'configmaps',
  subresource: '',
  namespace: 'default',
  path: '/api/v1/namespaces/default/configmaps',
  ...extra,
});

describe('FlowController', () => {
  const fc = new FlowController(600);
  fc.update([...mandatoryFlowSchemas, ...suggestedFlowSchemas], [...suggestedPriorityLevelConfigurations]);

  it.each([
    ['system:masters', digest('admin', ['system:masters', 'system:authenticated']), 'exempt', 'exempt'],
    ['a user', digest('alice', ['system:authenticated']), 'global-default', 'global-default'],
    ['a node', digest('system:node:n1', ['system:nodes', 'system:authenticated']), 'system-nodes', 'system'],
    [
      'a node lease',
      digest('system:node:n1', ['system:nodes', 'system:authenticated'], {
        apiGroup: 'coordination.k8s.io',
        resource: 'leases',
      }),
      'system-node-high',
      'node-high',
    ],
    [
      'a service account',
      digest('system:serviceaccount:ns:sa', ['system:serviceaccounts', 'system:authenticated']),
      'service-accounts',
      'workload-low',
    ],
    [
      'a probe',
      digest('system:anonymous', ['system:unauthenticated'], {
        isResourceRequest: false,
        verb: 'get',
        path: '/readyz',
      }),
      'probes',
      'exempt',
    ],
  ])('classifies %s', (_n, d, fs, pl) => {
    const c = fc.classify(d);
    expect([c.flowSchema.metadata.name, c.priorityLevel.metadata.name]).toEqual([fs, pl]);
  });

  it('splits the server limit by shares, rounded up', () => {
    const limits = fc.concurrencyLimits();
    // 600 * 20 / (5 + 0 + 30 + 40 + 10 + 40 + 100 + 20) = 48.98
    expect(limits.get('global-default')).toBe(49);
    expect(limits.get('catch-all')).toBe(13);
  });

  it('classifies again once the FlowSchemas change, and never confuses two requests whose parts concatenate alike', () => {
    const own = new FlowController(600);
    const levels = [...suggestedPriorityLevelConfigurations];
    own.update([...mandatoryFlowSchemas, ...suggestedFlowSchemas], levels);
    const alice = digest('alice', ['system:authenticated']);
    expect(own.classify(alice).flowSchema.metadata.name).toBe('global-default');
    // A schema of higher precedence for alice alone takes her next request, the same one.
    const mine = {
      metadata: { name: 'alice-first', uid: 'u1' },
      spec: {
        priorityLevelConfiguration: { name: 'workload-low' },
        matchingPrecedence: 100,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [{ kind: 'User', user: { name: 'alice' } }],
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }],
          },
        ],
      },
    } as (typeof suggestedFlowSchemas)[number];
    own.update([...mandatoryFlowSchemas, ...suggestedFlowSchemas, mine], levels);
    const c = own.classify(alice);
    expect([c.flowSchema.metadata.name, c.distinguisher]).toEqual(['alice-first', 'alice']);
    own.update([...mandatoryFlowSchemas, ...suggestedFlowSchemas], levels);
    expect(own.classify(alice).flowSchema.metadata.name).toBe('global-default');
    // "alic" in groups ["e", ...] joins to the same characters as alice's name and groups.
    const lookalike = digest('alic', ['esystem:authenticated']);
    own.update([...mandatoryFlowSchemas, ...suggestedFlowSchemas, mine], levels);
    expect(own.classify(alice).flowSchema.metadata.name).toBe('alice-first');
    expect(own.classify(lookalike).flowSchema.metadata.name).not.toBe('alice-first');
  });

  it('restores the mandatory objects when they are missing', () => {
    const bare = new FlowController(10);
    bare.update([], []);
    expect(bare.classify(digest('alice', ['system:authenticated'])).priorityLevel.metadata.name).toBe(
      'catch-all',
    );
    expect(bare.dangling()).toEqual([]);
  });
});

describe('borrowing', () => {
  it('deals the total out in proportion to targets, within each bound', () => {
    const r = allocate(10, [
      { lower: 1, upper: 2, target: 8 },
      { lower: 0, upper: 20, target: 2 },
      { lower: 3, upper: 20, target: 3 },
    ]);
    const allocs = r?.allocs.map((a) => Math.round(a * 1e6) / 1e6);
    // The first is capped at 2; the other two share the remaining 8 as 2 : 3 by fairFrac 1.6.
    expect(allocs).toEqual([2, 3.2, 4.8]);
    expect(r?.fairFrac).toBeCloseTo(1.6, 6);
  });

  it('refuses bounds that cannot sum to the total', () => {
    expect(allocate(1, [{ lower: 2, upper: 3, target: 2 }])).toBeUndefined();
    expect(allocate(5, [{ lower: 0, upper: 3, target: 2 }])).toBeUndefined();
  });

  it('summarizes seat demand over time: average, deviation and high watermark', () => {
    let now = 0;
    const d = new SeatDemand(() => now);
    d.set(4);
    now = 5;
    d.set(0);
    now = 10;
    const obs = d.reset();
    expect(obs).toEqual({ duration: 10, average: 2, deviation: 2, max: 4 });
    const stats = new SeatDemandStats();
    stats.update(obs);
    expect(stats.smoothed).toBe(4);
    expect(stats.highWatermark).toBe(4);
  });
});
