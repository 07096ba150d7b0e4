import { describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { coreV1EventView, eventsV1View } from './views.js';
import type { InternalEvent, ResourceView } from './types.js';

function decodeError(view: ResourceView<InternalEvent>, body: unknown): StatusError {
  try {
    view.decode(body);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('decode succeeded');
}

const handled = (err: string): string => `Event in version "v1" cannot be handled as a Event: ${err}`;

describe('wrong JSON types are 400s with Go decode errors', () => {
  it.each<[string, ResourceView<InternalEvent>, unknown, string]>([
    [
      'a number for a string',
      eventsV1View,
      { reason: 5 },
      'json: cannot unmarshal number into Go struct field Event.reason of type string',
    ],
    [
      'a bool for a string',
      eventsV1View,
      { note: true },
      'json: cannot unmarshal bool into Go struct field Event.note of type string',
    ],
    [
      'a metadata field',
      eventsV1View,
      { metadata: { name: 5 } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    ],
    [
      'a label value',
      eventsV1View,
      { metadata: { labels: { a: 5 } } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    [
      'the labels map',
      eventsV1View,
      { metadata: { labels: 'a=b' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    ],
    [
      'the metadata object',
      eventsV1View,
      { metadata: 'x' },
      'json: cannot unmarshal string into Go struct field Event.metadata of type v1.ObjectMeta',
    ],
    [
      'regarding',
      eventsV1View,
      { regarding: [] },
      'json: cannot unmarshal array into Go struct field Event.regarding of type v1.ObjectReference',
    ],
    [
      'regarding.uid',
      eventsV1View,
      { regarding: { uid: 1 } },
      'json: cannot unmarshal number into Go struct field ObjectReference.regarding.uid of type types.UID',
    ],
    [
      'deprecatedSource.component',
      eventsV1View,
      { deprecatedSource: { component: {} } },
      'json: cannot unmarshal object into Go struct field EventSource.deprecatedSource.component of type string',
    ],
    [
      'a fraction for int32',
      eventsV1View,
      { series: { count: 1.5 } },
      'json: cannot unmarshal number 1.5 into Go struct field EventSeries.series.count of type int32',
    ],
    [
      'an int32 overflow',
      eventsV1View,
      { deprecatedCount: 3000000000 },
      'json: cannot unmarshal number 3000000000 into Go struct field Event.deprecatedCount of type int32',
    ],
    [
      'a string for int32',
      eventsV1View,
      { deprecatedCount: '3' },
      'json: cannot unmarshal string into Go struct field Event.deprecatedCount of type int32',
    ],
    [
      'series',
      eventsV1View,
      { series: 2 },
      'json: cannot unmarshal number into Go struct field Event.series of type v1.EventSeries',
    ],
    [
      'finalizers',
      eventsV1View,
      { metadata: { finalizers: 'x' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
    [
      'an owner reference',
      eventsV1View,
      { metadata: { ownerReferences: [1] } },
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.ownerReferences of type v1.OwnerReference',
    ],
    [
      'an owner reference member',
      eventsV1View,
      { metadata: { ownerReferences: [{ controller: 'yes' }] } },
      'json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of type bool',
    ],
    [
      'generation',
      eventsV1View,
      { metadata: { generation: 'one' } },
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64',
    ],
    [
      'a MicroTime that is no string',
      eventsV1View,
      { eventTime: 5 },
      'json: cannot unmarshal number into Go struct field Event.eventTime of type string',
    ],
    [
      'a MicroTime that does not parse',
      eventsV1View,
      { eventTime: 'yesterday' },
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    ],
    [
      'a Time that does not parse',
      eventsV1View,
      { deprecatedFirstTimestamp: '2024-05-01' },
      'parsing time "2024-05-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"',
    ],
    [
      'the first of two type errors',
      eventsV1View,
      { reason: 5, note: 6 },
      'json: cannot unmarshal number into Go struct field Event.reason of type string',
    ],
    [
      'a time error after a type error',
      eventsV1View,
      { reason: 5, eventTime: 'x' },
      'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"',
    ],
    [
      'core involvedObject.name',
      coreV1EventView,
      { involvedObject: { name: 1 } },
      'json: cannot unmarshal number into Go struct field ObjectReference.involvedObject.name of type string',
    ],
    [
      'core count',
      coreV1EventView,
      { count: 'x' },
      'json: cannot unmarshal string into Go struct field Event.count of type int32',
    ],
    [
      'core firstTimestamp',
      coreV1EventView,
      { firstTimestamp: {} },
      'json: cannot unmarshal object into Go struct field Event.firstTimestamp of type string',
    ],
  ])('%s', (_name, view, body, err) => {
    const e = decodeError(view, body);
    expect(e.code).toBe(400);
    expect(e.reason).toBe('BadRequest');
    expect(e.message).toBe(handled(err));
  });

  it('takes null for a zero value anywhere', () => {
    const { object } = eventsV1View.decode({
      metadata: { name: null, labels: { a: null } },
      reason: null,
      regarding: null,
      series: null,
      deprecatedCount: null,
    });
    expect(object).toEqual({ metadata: { labels: { a: '' } } });
  });
});
