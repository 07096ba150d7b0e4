import { describe, expect, it } from 'vitest';
import { fieldErrorString, StatusError } from '@keel/apimachinery';
import {
  applyBinding,
  bindingValidationError,
  checkBindingName,
  decodeBinding,
  validateBinding,
  type Binding,
} from './binding.js';
import type { Pod } from './pod-types.js';
import { createdPod } from './testing/pods.js';

const now = new Date('2024-05-01T12:00:00.123Z');

function binding(
  extra: Partial<Binding['metadata']> = {},
  target: Record<string, unknown> = { apiVersion: 'v1', kind: 'Node', name: 'n1' },
): Binding {
  return decodeBinding({
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: 'p1', namespace: 'default', ...extra },
    target,
  }).object;
}

function failure(f: () => unknown): StatusError {
  try {
    f();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('no error');
}

describe('Binding decode and validation', () => {
  it('decodes the scheduler body', () => {
    expect(binding({ uid: 'uid-1' })).toEqual({
      metadata: { name: 'p1', namespace: 'default', uid: 'uid-1' },
      target: { apiVersion: 'v1', kind: 'Node', name: 'n1' },
    });
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a node target', { kind: 'Node', name: 'n1' }, []],
    ['an empty kind', { name: 'n1' }, []],
    [
      'a pod target without name',
      { kind: 'Pod' },
      [
        'target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"',
        'target.name: Required value',
      ],
    ],
  ])('%s', (_name, target, errors) => {
    expect(validateBinding(binding({}, target)).map(fieldErrorString)).toEqual(errors);
  });

  it('turns validation errors into the reason-less 500 BindingREST produces', () => {
    const err = bindingValidationError(validateBinding(binding({}, {})));
    expect(err.code).toBe(500);
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'target.name: Required value',
      code: 500,
    });
  });

  it('checks the URL name', () => {
    expect(() => checkBindingName('p1', binding())).not.toThrow();
    const err = failure(() => checkBindingName('p2', binding()));
    expect([err.code, err.message]).toEqual([400, 'name in URL does not match name in Binding object']);
  });
});

describe('applyBinding', () => {
  it('sets nodeName, merges annotations and sets PodScheduled=True', () => {
    const pod = createdPod({}, { annotations: { a: '1' } });
    pod.status = {
      ...pod.status,
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: 'no fit',
          lastTransitionTime: '2024-05-01T11:00:00Z',
        },
      ],
    };
    const before = structuredClone(pod);
    const out = applyBinding(pod, binding({ annotations: { b: '2' } }), now);
    expect(pod).toEqual(before);
    expect(out.spec?.nodeName).toBe('n1');
    expect(out.metadata.annotations).toEqual({ a: '1', b: '2' });
    expect(out.status?.conditions).toEqual([
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-05-01T12:00:00Z' },
    ]);
    expect(pod.spec?.nodeName).toBeUndefined();
  });

  it('appends the condition when there is none', () => {
    expect(applyBinding(createdPod(), binding(), now).status?.conditions).toEqual([
      { type: 'PodScheduled', status: 'True', lastTransitionTime: '2024-05-01T12:00:00Z' },
    ]);
  });

  it.each<[string, (p: Pod) => void, Partial<Binding['metadata']>, number, string]>([
    [
      'a uid precondition',
      () => undefined,
      { uid: 'other' },
      409,
      'Operation cannot be fulfilled on pods "p1": Precondition failed: UID in precondition: other, UID in object meta: uid-1',
    ],
    [
      'a resourceVersion precondition',
      () => undefined,
      { resourceVersion: '9' },
      409,
      'Operation cannot be fulfilled on pods "p1": Precondition failed: ResourceVersion in precondition: 9, ResourceVersion in object meta: 10',
    ],
    [
      'a pod being deleted',
      (p) => (p.metadata.deletionTimestamp = '2024-05-01T11:59:00Z'),
      {},
      409,
      'Operation cannot be fulfilled on pods/binding "p1": pod p1 is being deleted, cannot be assigned to a host',
    ],
    [
      'a bound pod',
      (p) => (p.spec = { ...p.spec, nodeName: 'n0' }),
      {},
      409,
      'Operation cannot be fulfilled on pods/binding "p1": pod p1 is already assigned to node "n0"',
    ],
    [
      'a gated pod',
      (p) => (p.spec = { ...p.spec, schedulingGates: [{ name: 'g' }] }),
      {},
      409,
      'Operation cannot be fulfilled on pods/binding "p1": pod p1 has non-empty .spec.schedulingGates',
    ],
  ])('refuses %s', (_name, edit, meta, code, message) => {
    const pod = createdPod();
    edit(pod);
    const err = failure(() => applyBinding(pod, binding(meta), now));
    expect([err.code, err.reason, err.message]).toEqual([code, 'Conflict', message]);
  });

  it('accepts matching preconditions', () => {
    expect(
      applyBinding(createdPod(), binding({ uid: 'uid-1', resourceVersion: '10' }), now).spec?.nodeName,
    ).toBe('n1');
  });
});
