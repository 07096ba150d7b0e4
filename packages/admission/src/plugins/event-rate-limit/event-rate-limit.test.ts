import type { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../../index.js';
import type { Limit } from './configuration.js';
import { eventRateLimit } from './index.js';

function eventWrite(
  over: { namespace?: string; user?: string; group?: string; kind?: string; object?: object } = {},
): AdmissionAttributes {
  const group = over.group ?? '';
  return {
    operation: 'CREATE',
    resource: { group, version: 'v1', resource: 'events' },
    subresource: '',
    kind: { group, version: 'v1', kind: over.kind ?? 'Event' },
    namespace: over.namespace ?? 'ns-a',
    name: 'e1',
    object: (over.object ?? { metadata: { name: 'e1' } }) as AdmissionAttributes['object'],
    oldObject: undefined,
    user: { name: over.user ?? 'alice', uid: '', groups: [], extra: {} },
    dryRun: false,
  };
}

function setup(limits: Limit[]) {
  let t = 1_000_000;
  const plugin = eventRateLimit(limits, () => t);
  const outcome = (attrs: AdmissionAttributes): string => {
    try {
      void plugin.validate?.(attrs);
      return 'ok';
    } catch (err) {
      const s = (err as StatusError).status;
      return `${s.code} ${s.reason}: ${s.message}`;
    }
  };
  return { outcome, advance: (ms: number) => (t += ms) };
}

const limit = (type: Limit['type'], qps: number, burst: number, cacheSize = 4096): Limit => ({
  type,
  qps,
  burst,
  cacheSize,
});

describe('EventRateLimit', () => {
  it('admits a burst, then answers 429 with the real message until tokens come back', () => {
    const { outcome, advance } = setup([limit('Server', 2, 3)]);
    expect([1, 2, 3].map(() => outcome(eventWrite()))).toEqual(['ok', 'ok', 'ok']);
    expect(outcome(eventWrite())).toBe(
      '429 TooManyRequests: Too many requests: limit reached on type Server for key ',
    );
    advance(499);
    expect(outcome(eventWrite())).not.toBe('ok');
    advance(1);
    expect(outcome(eventWrite())).toBe('ok');
  });

  it('keeps one bucket per namespace, per user, and per source and object', () => {
    const ns = setup([limit('Namespace', 1, 1)]);
    expect(ns.outcome(eventWrite({ namespace: 'a' }))).toBe('ok');
    expect(ns.outcome(eventWrite({ namespace: 'b' }))).toBe('ok');
    expect(ns.outcome(eventWrite({ namespace: 'a' }))).toContain('limit reached on type Namespace for key a');

    const user = setup([limit('User', 1, 1)]);
    expect(user.outcome(eventWrite({ user: 'alice' }))).toBe('ok');
    expect(user.outcome(eventWrite({ user: 'bob' }))).toBe('ok');
    expect(user.outcome(eventWrite({ user: 'bob' }))).toContain('limit reached on type User for key bob');

    const so = setup([limit('SourceAndObject', 1, 1)]);
    const about = (name: string) => ({
      source: { component: 'nodeagent', host: 'n1' },
      involvedObject: { kind: 'Pod', namespace: 'a', name, uid: 'u1', apiVersion: 'v1' },
    });
    expect(so.outcome(eventWrite({ object: about('p1') }))).toBe('ok');
    expect(so.outcome(eventWrite({ object: about('p2') }))).toBe('ok');
    expect(so.outcome(eventWrite({ object: about('p1') }))).toContain(
      'limit reached on type SourceAndObject for key nodeagentn1Podap1u1v1',
    );
  });

  it('forgets the least recently used key past cacheSize (its bucket starts full again)', () => {
    const { outcome } = setup([limit('Namespace', 1, 1, 2)]);
    expect(outcome(eventWrite({ namespace: 'a' }))).toBe('ok');
    expect(outcome(eventWrite({ namespace: 'b' }))).toBe('ok');
    expect(outcome(eventWrite({ namespace: 'c' }))).toBe('ok'); // evicts a
    expect(outcome(eventWrite({ namespace: 'a' }))).toBe('ok'); // a is new again; evicts b
    expect(outcome(eventWrite({ namespace: 'c' }))).toContain('for key c');
  });

  it("spends every limit's token and reports the last refusal", () => {
    const { outcome } = setup([limit('Server', 1, 1), limit('Namespace', 1, 1)]);
    expect(outcome(eventWrite({ namespace: 'a' }))).toBe('ok');
    expect(outcome(eventWrite({ namespace: 'a' }))).toContain('limit reached on type Namespace for key a');
    expect(outcome(eventWrite({ namespace: 'b' }))).toContain('limit reached on type Server for key ');
  });

  it('counts both Event APIs and nothing else', () => {
    const { outcome } = setup([limit('Server', 1, 1)]);
    expect(outcome(eventWrite({ kind: 'ConfigMap' }))).toBe('ok');
    expect(outcome(eventWrite({ group: 'events.k8s.io' }))).toBe('ok');
    expect(outcome(eventWrite())).toContain('429');
  });
});
