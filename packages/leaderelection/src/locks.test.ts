import { describe, expect, it } from 'vitest';
import { ConfigMapLock, EndpointsLock } from './annotation-lock.js';
import { LeaseLock } from './lease-lock.js';
import type { EventRecorder, Lock } from './lock.js';
import { MemoryObjectClient } from './memory-object-client.js';
import { ConfigMapLeaseLock, EndpointsLeaseLock, type MultiLock } from './multi-lock.js';
import { defaultIdentity, newLock } from './new-lock.js';
import { errorReason } from './object-client.js';
import { LEADER_ANNOTATION, UNKNOWN_LEADER, type LeaderElectionRecord } from './record.js';

const NS = 'kube-system';
const LEASE = `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/sched`;
const ENDPOINTS = `/api/v1/namespaces/${NS}/endpoints/sched`;

const rec = (holder: string, transitions = 0): LeaderElectionRecord => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: '2024-01-02T03:04:05.678000Z',
  renewTime: '2024-01-02T03:04:06.000000Z',
  leaderTransitions: transitions,
});

async function reasonOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return 'resolved';
  } catch (err) {
    return errorReason(err) ?? (err as Error).message;
  }
}

function recorder(events: string[]): EventRecorder {
  return {
    event: (s, type, reason, msg) =>
      events.push(
        `${s.apiVersion} ${s.kind} ${String(s.metadata.namespace)}/${String(s.metadata.name)} rv=${String(s.metadata.resourceVersion)} ${type} ${reason} ${msg}`,
      ),
  };
}

describe('LeaseLock', () => {
  it('reads nothing until created, then round-trips the record through the Lease spec', async () => {
    const client = new MemoryObjectClient();
    const lock = new LeaseLock(NS, 'sched', client, { identity: 'a' });
    expect(await lock.get()).toBeUndefined();
    await lock.create(rec('a'));
    expect(client.peek(LEASE)).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'sched', namespace: NS, resourceVersion: '1' },
      spec: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        leaseTransitions: 0,
        acquireTime: rec('a').acquireTime,
      },
    });
    const got = await lock.get();
    expect(got?.record).toEqual(rec('a'));
    expect(got?.raw).toBe(JSON.stringify(rec('a')));
    expect([lock.identity(), lock.describe()]).toEqual(['a', `${NS}/sched`]);
  });

  it('updates conditionally on the resourceVersion it last saw', async () => {
    const client = new MemoryObjectClient();
    const a = new LeaseLock(NS, 'sched', client, { identity: 'a' });
    const b = new LeaseLock(NS, 'sched', client, { identity: 'b' });
    expect(await reasonOf(a.update(rec('a')))).toBe(
      'Lease kube-system/sched not initialized, call get or create first',
    );
    await a.create(rec('a'));
    expect(await reasonOf(b.create(rec('b')))).toBe('AlreadyExists');
    await b.get();
    await a.update(rec('a', 0));
    expect(await reasonOf(b.update(rec('b', 1)))).toBe('Conflict');
    await b.get();
    await b.update(rec('b', 1));
    expect((await a.get())?.record).toEqual(rec('b', 1));
  });

  it('records LeaderElection events about the Lease as last seen', async () => {
    const events: string[] = [];
    const lock = new LeaseLock(NS, 'sched', new MemoryObjectClient(), {
      identity: 'a',
      recorder: recorder(events),
    });
    lock.recordEvent('became leader');
    await lock.create(rec('a'));
    lock.recordEvent('stopped leading');
    expect(events).toEqual([
      'coordination.k8s.io/v1 Lease kube-system/sched rv=undefined Normal LeaderElection a became leader',
      'coordination.k8s.io/v1 Lease kube-system/sched rv=1 Normal LeaderElection a stopped leading',
    ]);
  });
});

describe('annotation locks', () => {
  it.each<[string, typeof EndpointsLock, string, string]>([
    ['Endpoints', EndpointsLock, ENDPOINTS, 'v1'],
    ['ConfigMap', ConfigMapLock, `/api/v1/namespaces/${NS}/configmaps/sched`, 'v1'],
  ])(
    '%s keeps the record as Go-marshalled JSON in the leader annotation',
    async (kind, Ctor, path, apiVersion) => {
      const client = new MemoryObjectClient();
      const lock = new Ctor(NS, 'sched', client, { identity: 'a' });
      await lock.create(rec('a'));
      const text =
        '{"holderIdentity":"a","leaseDurationSeconds":15,"acquireTime":"2024-01-02T03:04:05Z","renewTime":"2024-01-02T03:04:06Z","leaderTransitions":0}';
      expect(client.peek(path)).toMatchObject({
        apiVersion,
        kind,
        metadata: { annotations: { [LEADER_ANNOTATION]: text } },
      });
      const got = await lock.get();
      expect(got).toEqual({ record: { ...rec('a'), acquireTime: '2024-01-02T03:04:05.000000Z' }, raw: text });
    },
  );

  it('reads an object without the annotation as an empty record and keeps other annotations on update', async () => {
    const client = new MemoryObjectClient();
    await client.create(`/api/v1/namespaces/${NS}/endpoints`, {
      metadata: { name: 'sched', annotations: { keep: 'me' } },
    });
    const lock = new EndpointsLock(NS, 'sched', client, { identity: 'a' });
    expect(await lock.get()).toEqual({
      record: {
        holderIdentity: '',
        leaseDurationSeconds: 0,
        acquireTime: '',
        renewTime: '',
        leaderTransitions: 0,
      },
      raw: '',
    });
    await lock.update(rec('a'));
    expect(client.peek(ENDPOINTS)?.metadata?.annotations?.keep).toBe('me');
  });
});

describe('MultiLock (endpointsleases, configmapsleases)', () => {
  it.each<
    [
      string,
      new (ns: string, n: string, c: MemoryObjectClient, cfg: { identity: string }) => MultiLock,
      string,
    ]
  >([
    ['EndpointsLeaseLock', EndpointsLeaseLock, ENDPOINTS],
    ['ConfigMapLeaseLock', ConfigMapLeaseLock, `/api/v1/namespaces/${NS}/configmaps/sched`],
  ])('%s creates and updates both objects and reads the primary', async (_n, Ctor, primaryPath) => {
    const client = new MemoryObjectClient();
    const lock = new Ctor(NS, 'sched', client, { identity: 'a' });
    await lock.create(rec('a'));
    expect(client.peek(primaryPath)?.metadata?.annotations?.[LEADER_ANNOTATION]).toContain(
      '"holderIdentity":"a"',
    );
    expect(client.peek(LEASE)?.spec).toMatchObject({ holderIdentity: 'a' });
    const first = await lock.get();
    expect(first?.record.holderIdentity).toBe('a');
    await lock.update(rec('a', 3));
    expect(client.peek(LEASE)?.spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 3 });
    expect(client.peek(primaryPath)?.metadata?.annotations?.[LEADER_ANNOTATION]).toContain(
      '"leaderTransitions":3',
    );
    const second = await lock.get();
    expect(second?.raw).not.toEqual(first?.raw);
    expect(lock.describe()).toBe(`${NS}/sched`);
  });

  it('reports an unknown leader when the halves disagree, and copes with a missing Lease', async () => {
    const client = new MemoryObjectClient();
    const other = new EndpointsLock(NS, 'sched', client, { identity: 'old' });
    await other.create(rec('old'));
    const mine = new EndpointsLeaseLock(NS, 'sched', client, { identity: 'a' });
    // Held by a candidate that only writes Endpoints: the primary's record counts.
    expect((await mine.get())?.record.holderIdentity).toBe('old');
    const lease = new LeaseLock(NS, 'sched', client, { identity: 'x' });
    await lease.create(rec('x'));
    expect((await mine.get())?.record.holderIdentity).toBe(UNKNOWN_LEADER);
  });

  it('treats its own primary without a Lease as not found, and update creates the Lease', async () => {
    const client = new MemoryObjectClient();
    await new EndpointsLock(NS, 'sched', client, { identity: 'a' }).create(rec('a'));
    const lock = new EndpointsLeaseLock(NS, 'sched', client, { identity: 'a' });
    expect(await lock.get()).toBeUndefined();
    await lock.create(rec('a'));
    expect(client.peek(LEASE)?.spec).toMatchObject({ holderIdentity: 'a' });
    expect(await reasonOf(lock.get())).toBe('resolved');
  });

  it('emits each event on both objects', async () => {
    const events: string[] = [];
    const lock = newLock('configmapsleases', NS, 'sched', 'a', new MemoryObjectClient(), recorder(events));
    lock.recordEvent('became leader');
    expect(events.map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual([
      'v1 ConfigMap',
      'coordination.k8s.io/v1 Lease',
    ]);
  });
});

describe('newLock and defaultIdentity', () => {
  it.each<[string, new (...args: never[]) => Lock]>([
    ['leases', LeaseLock],
    ['endpointsleases', EndpointsLeaseLock],
    ['configmapsleases', ConfigMapLeaseLock],
  ])('%s', (type, Ctor) => {
    const lock = newLock(type, NS, 'sched', 'me', new MemoryObjectClient());
    expect(lock).toBeInstanceOf(Ctor);
    expect(lock.identity()).toBe('me');
  });

  it('rejects other lock types', () => {
    expect(() => newLock('endpoints', NS, 'sched', 'me', new MemoryObjectClient())).toThrow(
      'invalid lock-type "endpoints"; supported values: "leases", "endpointsleases", "configmapsleases"',
    );
  });

  it('is <hostname>_<uuid>, unique per call', () => {
    const id = defaultIdentity('node-1');
    expect(id).toMatch(/^node-1_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(defaultIdentity('node-1')).not.toBe(id);
    expect(defaultIdentity()).toMatch(/^.+_[0-9a-f-]{36}$/);
  });
});
