import { describe, expect, it } from 'vitest';
import { coreV1EventView, eventsV1View } from './views.js';
import type { InternalEvent } from './types.js';

const meta = {
  name: 'p1.17c1',
  namespace: 'default',
  uid: 'u-1',
  resourceVersion: '812',
  creationTimestamp: '2024-05-01T10:00:00Z',
};

/** An events.k8s.io/v1 body as Go writes it, every field set. */
const eventsBody = {
  kind: 'Event',
  apiVersion: 'events.k8s.io/v1',
  metadata: meta,
  eventTime: '2024-05-01T10:00:00.123456Z',
  series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' },
  reportingController: 'default-scheduler',
  reportingInstance: 'sched-1',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: {
    kind: 'Pod',
    namespace: 'default',
    name: 'p1',
    uid: 'pu',
    apiVersion: 'v1',
    resourceVersion: '5',
    fieldPath: 'spec',
  },
  related: { kind: 'Node', name: 'n1' },
  note: 'assigned',
  type: 'Normal',
  deprecatedSource: { component: 'c', host: 'h' },
  deprecatedFirstTimestamp: '2024-05-01T09:00:00Z',
  deprecatedLastTimestamp: '2024-05-01T09:30:00Z',
  deprecatedCount: 4,
};

/** The same stored event through core/v1. */
const coreBody = {
  kind: 'Event',
  apiVersion: 'v1',
  metadata: meta,
  involvedObject: {
    kind: 'Pod',
    namespace: 'default',
    name: 'p1',
    uid: 'pu',
    apiVersion: 'v1',
    resourceVersion: '5',
    fieldPath: 'spec',
  },
  reason: 'Scheduled',
  message: 'assigned',
  source: { component: 'c', host: 'h' },
  firstTimestamp: '2024-05-01T09:00:00Z',
  lastTimestamp: '2024-05-01T09:30:00Z',
  count: 4,
  type: 'Normal',
  eventTime: '2024-05-01T10:00:00.123456Z',
  series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' },
  action: 'Binding',
  related: { kind: 'Node', name: 'n1' },
  reportingComponent: 'default-scheduler',
  reportingInstance: 'sched-1',
};

const internal: InternalEvent = {
  metadata: meta,
  involvedObject: {
    kind: 'Pod',
    namespace: 'default',
    name: 'p1',
    uid: 'pu',
    apiVersion: 'v1',
    resourceVersion: '5',
    fieldPath: 'spec',
  },
  reason: 'Scheduled',
  message: 'assigned',
  source: { component: 'c', host: 'h' },
  firstTimestamp: '2024-05-01T09:00:00Z',
  lastTimestamp: '2024-05-01T09:30:00Z',
  count: 4,
  type: 'Normal',
  eventTime: '2024-05-01T10:00:00.123456Z',
  series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' },
  action: 'Binding',
  related: { kind: 'Node', name: 'n1' },
  reportingComponent: 'default-scheduler',
  reportingInstance: 'sched-1',
};

/** Key order matters on the wire, so compare the serialised text. */
const text = (v: unknown): string => JSON.stringify(v);

describe('field mapping (§1.1)', () => {
  it.each([
    ['events.k8s.io/v1', eventsV1View, eventsBody],
    ['core/v1', coreV1EventView, coreBody],
  ] as const)(
    'decodes a full %s body to the stored event and encodes it back unchanged',
    (_name, view, body) => {
      const { object, unknownFields } = view.decode(body);
      expect(text(object)).toBe(text(internal));
      expect(unknownFields).toEqual([]);
      expect(text(view.encode(object))).toBe(text(body));
    },
  );

  it('reads an event created through events.k8s.io/v1 through core/v1', () => {
    expect(text(coreV1EventView.encode(eventsV1View.decode(eventsBody).object))).toBe(text(coreBody));
  });

  it('reads an event created through core/v1 through events.k8s.io/v1', () => {
    expect(text(eventsV1View.encode(coreV1EventView.decode(coreBody).object))).toBe(text(eventsBody));
  });
});

describe('zero values on the wire (§0)', () => {
  const bare: InternalEvent = { metadata: meta };

  it('events.k8s.io/v1 writes the struct members Go cannot omit', () => {
    expect(text(eventsV1View.encode(bare))).toBe(
      text({
        kind: 'Event',
        apiVersion: 'events.k8s.io/v1',
        metadata: meta,
        eventTime: null,
        regarding: {},
        deprecatedSource: {},
        deprecatedFirstTimestamp: null,
        deprecatedLastTimestamp: null,
      }),
    );
  });

  it('core/v1 writes its non-omitempty members', () => {
    expect(text(coreV1EventView.encode(bare))).toBe(
      text({
        kind: 'Event',
        apiVersion: 'v1',
        metadata: meta,
        involvedObject: {},
        source: {},
        firstTimestamp: null,
        lastTimestamp: null,
        eventTime: null,
        reportingComponent: '',
        reportingInstance: '',
      }),
    );
  });

  it.each([
    ['events.k8s.io/v1', eventsV1View, { count: 0, lastObservedTime: null }],
    ['core/v1', coreV1EventView, { lastObservedTime: null }],
  ] as const)('%s writes an empty series the way its struct tags say', (_name, view, want) => {
    expect(view.encode({ metadata: meta, series: {} }).series).toEqual(want);
  });

  it('writes a zero creationTimestamp as null and metadata in ObjectMeta order', () => {
    const encoded = eventsV1View.encode({
      metadata: { labels: { a: 'b' }, namespace: 'ns', name: 'n', annotations: {}, finalizers: [] },
    });
    expect(text(encoded.metadata)).toBe(
      text({ name: 'n', namespace: 'ns', creationTimestamp: null, labels: { a: 'b' } }),
    );
  });

  it('stores zero values as absent and keeps an empty related and series', () => {
    const { object } = eventsV1View.decode({
      metadata: { name: 'e', namespace: 'default' },
      reason: '',
      regarding: { kind: '', name: '' },
      deprecatedSource: {},
      deprecatedCount: 0,
      eventTime: null,
      deprecatedFirstTimestamp: '0001-01-01T00:00:00Z',
      related: {},
      series: {},
    });
    expect(text(object)).toBe(
      text({ metadata: { name: 'e', namespace: 'default' }, series: {}, related: {} }),
    );
    expect(text(coreV1EventView.encode(object).related)).toBe('{}');
  });
});

describe('timestamps', () => {
  it.each([
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000000Z'],
    ['2024-05-01T10:00:00.1Z', '2024-05-01T10:00:00.100000Z'],
    ['2024-05-01T10:00:00.12Z', '2024-05-01T10:00:00.120000Z'],
    ['2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00.123000Z'],
    ['2024-05-01T10:00:00.1234Z', '2024-05-01T10:00:00.123400Z'],
    ['2024-05-01T10:00:00.12345Z', '2024-05-01T10:00:00.123450Z'],
    ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T10:00:00.1234567Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T10:00:00.12345678Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T10:00:00.123456789Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T12:00:00.5+02:00', '2024-05-01T10:00:00.500000Z'],
    ['2024-05-01T02:30:00.999999999-07:30', '2024-05-01T10:00:00.999999Z'],
    ['2024-05-01T00:30:00-09:30', '2024-05-01T10:00:00.000000Z'],
  ])('MicroTime %s is stored and written as %s', (input, want) => {
    const { object } = eventsV1View.decode({
      eventTime: input,
      series: { count: 2, lastObservedTime: input },
    });
    expect(object.eventTime).toBe(want);
    expect(eventsV1View.encode(object).eventTime).toBe(want);
    expect(coreV1EventView.encode(object).series).toEqual({ count: 2, lastObservedTime: want });
  });

  it.each([
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00Z'],
    ['2024-05-01T10:00:00.999Z', '2024-05-01T10:00:00Z'],
    ['2024-05-01T12:00:00+02:00', '2024-05-01T10:00:00Z'],
  ])('Time %s is stored and written as %s', (input, want) => {
    const { object } = coreV1EventView.decode({
      firstTimestamp: input,
      metadata: { creationTimestamp: input },
    });
    expect(object.firstTimestamp).toBe(want);
    expect(object.metadata.creationTimestamp).toBe(want);
    expect(eventsV1View.encode(object).deprecatedFirstTimestamp).toBe(want);
  });
});

describe('metadata', () => {
  it('keeps what it knows, normalised, and the owner reference members Go always writes', () => {
    const { object } = coreV1EventView.decode({
      metadata: {
        name: 'e',
        namespace: 'default',
        labels: { app: 'x' },
        ownerReferences: [{ kind: 'Pod', name: 'p', controller: true }],
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            time: '2024-05-01T10:00:00.5Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:reason': {} },
          },
        ],
        deletionGracePeriodSeconds: 0,
      },
    });
    expect(object.metadata).toEqual({
      name: 'e',
      namespace: 'default',
      deletionGracePeriodSeconds: 0,
      labels: { app: 'x' },
      ownerReferences: [{ apiVersion: '', kind: 'Pod', name: 'p', uid: '', controller: true }],
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Update',
          time: '2024-05-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:reason': {} },
        },
      ],
    });
    expect(coreV1EventView.encode(object).metadata).toEqual({ ...object.metadata, creationTimestamp: null });
  });

  it('keeps an empty managedFields list (it resets managed fields)', () => {
    expect(coreV1EventView.decode({ metadata: { managedFields: [] } }).object.metadata).toEqual({
      managedFields: [],
    });
  });

  it('does not let a label named __proto__ escape', () => {
    const body = JSON.parse('{"metadata":{"labels":{"__proto__":"x"}}}') as unknown;
    expect(Object.keys(coreV1EventView.decode(body).object.metadata.labels ?? {})).toEqual(['__proto__']);
  });
});
