import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { priorityClassView, type PriorityClass } from './priorityclass.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function pc(name: string, body: Record<string, unknown> = {}): PriorityClass {
  return priorityClassView.decode({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, ...body }).object;
}

describe('PriorityClass', () => {
  it('defaults preemptionPolicy and always writes the value', () => {
    expect(priorityClassView.encode(pc('zero'))).toEqual({
      kind: 'PriorityClass',
      apiVersion: 'scheduling.k8s.io/v1',
      metadata: { name: 'zero', creationTimestamp: null },
      value: 0,
      preemptionPolicy: 'PreemptLowerPriority',
    });
  });

  it.each<[string, PriorityClass, string[]]>([
    ['a user class at the ceiling', pc('high', { value: 1000000000, globalDefault: true, preemptionPolicy: 'Never' }), []],
    ['a system class as built in', pc('system-node-critical', { value: 2000001000 }), []],
    ['a user class above the ceiling', pc('huge', { value: 1000000001 }), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
    [
      'an unknown system- name',
      pc('system-mine', { value: 1 }),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"],
    ],
    [
      'a system class with another value',
      pc('system-cluster-critical', { value: 1 }),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000"],
    ],
    [
      'a system class as global default',
      pc('system-cluster-critical', { value: 2000000000, globalDefault: true }),
      ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false"],
    ],
    ['an unknown preemption policy', pc('p', { preemptionPolicy: 'Sometimes' }), ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']],
    ['an empty preemption policy', pc('p', { preemptionPolicy: '' }), ['preemptionPolicy: Required value']],
  ])('validates %s', (_name, obj, want) => {
    expect(strings(priorityClassView.validateCreate(obj))).toEqual(want);
  });

  it('keeps value and preemptionPolicy as created', () => {
    const old = { ...pc('p', { value: 1 }), metadata: { name: 'p', uid: 'u', resourceVersion: '1' } };
    const changed = { ...old, value: 2, preemptionPolicy: 'Never', description: 'may change' };
    expect(strings(priorityClassView.validateUpdate(changed, old))).toEqual([
      'value: Forbidden: may not be changed in an update.',
      'preemptionPolicy: Invalid value: "Never": field is immutable',
    ]);
    expect(strings(priorityClassView.validateUpdate({ ...old, description: 'fine', globalDefault: true }, old))).toEqual([]);
  });

  it('prints NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY', () => {
    expect(priorityClassView.tableColumns.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Value', 'integer'],
      ['Global-Default', 'boolean'],
      ['Age', 'string'],
      ['PreemptionPolicy', 'string'],
    ]);
    const row = priorityClassView.tableRow({ ...pc('p', { value: 7, globalDefault: true }), metadata: { name: 'p', creationTimestamp: '2024-05-01T10:00:00Z' } }, new Date('2024-05-01T10:05:00Z'));
    expect(row).toEqual(['p', 7, true, '5m', 'PreemptLowerPriority']);
  });
});
