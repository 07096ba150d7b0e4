import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, Operation } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

type Json = Record<string, unknown>;

const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };

function pc(name: string, value: number, more: Json = {}): StoredObject {
  return { metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...more } as StoredObject;
}

const SYSTEM = [pc('system-node-critical', 2000001000), pc('system-cluster-critical', 2000000000)];

function podAttrs(spec: Json, operation: Operation = 'CREATE', old?: Json): AdmissionAttributes {
  return {
    operation,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    name: 'p',
    object: { metadata: { name: 'p', namespace: 'ns' }, spec } as StoredObject,
    oldObject: old ? ({ metadata: { name: 'p', namespace: 'ns' }, spec: old } as StoredObject) : undefined,
    user: admin,
    dryRun: false,
  };
}

function classAttrs(object: StoredObject, operation: Operation = 'CREATE'): AdmissionAttributes {
  return {
    operation,
    resource: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' },
    subresource: '',
    kind: { group: 'scheduling.k8s.io', version: 'v1', kind: 'PriorityClass' },
    namespace: '',
    name: object.metadata.name ?? '',
    object,
    oldObject: operation === 'UPDATE' ? object : undefined,
    user: admin,
    dryRun: false,
  };
}

function chainWith(classes: StoredObject[], stored: StoredObject[] = []) {
  const deps = depsOf({ priorityclasses: classes });
  // The store may hold a class the watched copy has not seen yet.
  return chainOf(['Priority'], {
    ...deps,
    read: (resource, ns, name) =>
      Promise.resolve(
        resource === 'priorityclasses' ? stored.find((c) => c.metadata.name === name) : undefined,
      ),
  });
}

async function refusal(run: () => Promise<void>): Promise<{ code: number; message: string } | undefined> {
  try {
    await run();
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code ?? 0, message: s.message ?? '' };
  }
}

describe('Priority: pods', () => {
  it.each<[string, Json, StoredObject[], Json]>([
    ['no class and no default: 0', {}, SYSTEM, { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
    [
      'a system class',
      { priorityClassName: 'system-node-critical' },
      SYSTEM,
      { priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' },
    ],
    [
      'a user class that never preempts',
      { priorityClassName: 'batch' },
      [...SYSTEM, pc('batch', 100, { preemptionPolicy: 'Never' })],
      { priority: 100, preemptionPolicy: 'Never' },
    ],
    [
      'the global default, named in the pod',
      {},
      [...SYSTEM, pc('low', 5, { globalDefault: true })],
      { priorityClassName: 'low', priority: 5, preemptionPolicy: 'PreemptLowerPriority' },
    ],
    [
      'the lowest of two defaults a race left',
      {},
      [pc('b', 9, { globalDefault: true }), pc('a', 7, { globalDefault: true })],
      { priorityClassName: 'a', priority: 7 },
    ],
    [
      'the same priority as the class',
      { priorityClassName: 'system-cluster-critical', priority: 2000000000 },
      SYSTEM,
      { priority: 2000000000 },
    ],
  ])('%s', async (_name, spec, classes, want) => {
    const a = podAttrs(spec);
    await chainWith(classes).admit(a);
    expect((a.object as unknown as Json)['spec']).toMatchObject(want);
  });

  it('finds a class the watched copy has not seen yet in the store', async () => {
    const a = podAttrs({ priorityClassName: 'fresh' });
    await chainWith(SYSTEM, [pc('fresh', 42)]).admit(a);
    expect((a.object as unknown as Json)['spec']).toMatchObject({ priority: 42 });
  });

  it.each<[string, Json, StoredObject[], string]>([
    [
      'an unknown class',
      { priorityClassName: 'gold' },
      SYSTEM,
      'pods "p" is forbidden: no PriorityClass with name gold was found',
    ],
    [
      'a priority without a class',
      { priority: 5 },
      SYSTEM,
      'pods "p" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    ],
    [
      'a policy other than the class’s',
      { priorityClassName: 'batch', preemptionPolicy: 'PreemptLowerPriority' },
      [pc('batch', 100, { preemptionPolicy: 'Never' })],
      'pods "p" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
    ],
  ])('refuses %s with a 403', async (_name, spec, classes, message) => {
    expect(await refusal(() => chainWith(classes).admit(podAttrs(spec)))).toEqual({ code: 403, message });
  });

  it('keeps the priority create set when an update leaves it out', async () => {
    const a = podAttrs({ priorityClassName: 'gone' }, 'UPDATE', {
      priorityClassName: 'gone',
      priority: 3,
      preemptionPolicy: 'Never',
    });
    // The class no longer exists: updates do not resolve it again.
    await chainWith([]).admit(a);
    expect((a.object as unknown as Json)['spec']).toMatchObject({ priority: 3, preemptionPolicy: 'Never' });
  });

  it('leaves subresources alone', async () => {
    const a = { ...podAttrs({ priorityClassName: 'gold' }), subresource: 'status' };
    await chainWith([]).admit(a);
    expect((a.object as unknown as Json)['spec']).toEqual({ priorityClassName: 'gold' });
  });
});

describe('Priority: PriorityClasses', () => {
  const existing = [...SYSTEM, pc('low', 5, { globalDefault: true })];

  it('refuses a second global default, created or marked', async () => {
    const message =
      'priorityclasses.scheduling.k8s.io "high" is forbidden: PriorityClass low is already marked as default. Only one default can exist';
    const high = pc('high', 10, { globalDefault: true });
    expect(await refusal(() => chainWith(existing).validate(classAttrs(high)))).toEqual({
      code: 403,
      message,
    });
    expect(await refusal(() => chainWith(existing).validate(classAttrs(high, 'UPDATE')))).toEqual({
      code: 403,
      message,
    });
  });

  it('admits the default itself being saved again, and classes that are not defaults', async () => {
    const chain = chainWith(existing);
    await chain.validate(classAttrs(pc('low', 5, { globalDefault: true }), 'UPDATE'));
    await chain.validate(classAttrs(pc('high', 10)));
    await chainWith(SYSTEM).validate(classAttrs(pc('first', 1, { globalDefault: true })));
  });
});
