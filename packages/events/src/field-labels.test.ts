import { describe, expect, it } from 'vitest';
import { checkFieldLabels, parseFieldSelector } from '@keel/apimachinery';
import { coreV1EventView, eventsV1View } from './views.js';
import type { InternalEvent } from './types.js';

const event: InternalEvent = {
  metadata: { name: 'p1.17c1', namespace: 'team-a', labels: { app: 'web' } },
  involvedObject: {
    kind: 'Pod',
    namespace: 'team-a',
    name: 'p1',
    uid: 'pu',
    apiVersion: 'v1',
    resourceVersion: '5',
    fieldPath: 'spec.containers{c}',
  },
  reason: 'Started',
  source: { component: 'kubelet', host: 'n1' },
  type: 'Normal',
  reportingComponent: 'kubelet-ctrl',
};

describe('field labels (§5.2)', () => {
  it('events.k8s.io/v1 accepts exactly its labels', () => {
    expect(eventsV1View.fieldLabels).toEqual([
      'metadata.name',
      'metadata.namespace',
      'reason',
      'type',
      'reportingController',
      'source',
      'regarding.kind',
      'regarding.namespace',
      'regarding.name',
      'regarding.uid',
      'regarding.apiVersion',
      'regarding.resourceVersion',
      'regarding.fieldPath',
    ]);
  });

  it('core/v1 accepts exactly its labels', () => {
    expect(coreV1EventView.fieldLabels).toEqual([
      'metadata.name',
      'metadata.namespace',
      'involvedObject.kind',
      'involvedObject.namespace',
      'involvedObject.name',
      'involvedObject.uid',
      'involvedObject.apiVersion',
      'involvedObject.resourceVersion',
      'involvedObject.fieldPath',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ]);
  });

  it.each([
    ['events.k8s.io/v1', eventsV1View, 'involvedObject.name'],
    ['events.k8s.io/v1', eventsV1View, 'reportingComponent'],
    ['core/v1', coreV1EventView, 'regarding.name'],
    ['core/v1', coreV1EventView, 'reportingController'],
  ] as const)('%s rejects %s', (_name, view, label) => {
    expect(() => checkFieldLabels(parseFieldSelector(`${label}=x`), view.fieldLabels)).toThrow(
      `field label not supported: ${label}`,
    );
  });
});

describe('field values', () => {
  const common = {
    'metadata.name': 'p1.17c1',
    'metadata.namespace': 'team-a',
    reason: 'Started',
    type: 'Normal',
    source: 'kubelet',
  };
  const ref = {
    kind: 'Pod',
    namespace: 'team-a',
    name: 'p1',
    uid: 'pu',
    apiVersion: 'v1',
    resourceVersion: '5',
    fieldPath: 'spec.containers{c}',
  };
  const prefixed = (p: string): Record<string, string> =>
    Object.fromEntries(Object.entries(ref).map(([k, v]) => [`${p}.${k}`, v]));

  it('gives every events.k8s.io/v1 label its value', () => {
    const fields = eventsV1View.fields(event);
    expect(fields).toEqual({ ...common, reportingController: 'kubelet-ctrl', ...prefixed('regarding') });
    expect(Object.keys(fields).sort()).toEqual([...eventsV1View.fieldLabels].sort());
  });

  it('gives every core/v1 label its value', () => {
    const fields = coreV1EventView.fields(event);
    expect(fields).toEqual({ ...common, reportingComponent: 'kubelet-ctrl', ...prefixed('involvedObject') });
    expect(Object.keys(fields).sort()).toEqual([...coreV1EventView.fieldLabels].sort());
  });

  it.each([
    ['source.component when set', { component: 'kubelet' }, 'ctrl', 'kubelet'],
    ['the reporting controller when source.component is empty', { host: 'n1' }, 'ctrl', 'ctrl'],
    ['empty when both are', undefined, undefined, ''],
  ])('source is %s', (_name, source, controller, want) => {
    const e: InternalEvent = { metadata: {}, source, reportingComponent: controller };
    expect(eventsV1View.fields(e).source).toBe(want);
    expect(coreV1EventView.fields(e).source).toBe(want);
  });

  it('gives empty strings for an empty event', () => {
    expect(Object.values(eventsV1View.fields({ metadata: {} })).every((v) => v === '')).toBe(true);
  });

  it.each([
    [eventsV1View, 'regarding.name=p1,reportingController=kubelet-ctrl', true],
    [eventsV1View, 'source=kubelet,type!=Warning', true],
    [eventsV1View, 'regarding.kind=Node', false],
    [coreV1EventView, 'involvedObject.uid=pu,reportingComponent=kubelet-ctrl', true],
    [coreV1EventView, 'metadata.namespace=team-b', false],
  ] as const)('matches selectors (%#)', (view, selector, want) => {
    expect(parseFieldSelector(selector).matches(view.fields(event))).toBe(want);
  });

  it('labels are metadata.labels', () => {
    expect(eventsV1View.labels(event)).toEqual({ app: 'web' });
    expect(coreV1EventView.labels({ metadata: {} })).toEqual({});
  });
});
