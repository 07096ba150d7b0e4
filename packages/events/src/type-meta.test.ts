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

const scheme = '"k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"';

describe('apiVersion and kind', () => {
  it.each<[string, ResourceView<InternalEvent>, unknown, string]>([
    [
      'core/v1 data sent to events.k8s.io/v1',
      eventsV1View,
      { apiVersion: 'v1', kind: 'Event' },
      'the API version in the data (v1) does not match the expected API version (events.k8s.io/v1)',
    ],
    [
      'v1beta1 data sent to events.k8s.io/v1',
      eventsV1View,
      { apiVersion: 'events.k8s.io/v1beta1' },
      'the API version in the data (events.k8s.io/v1beta1) does not match the expected API version (events.k8s.io/v1)',
    ],
    [
      'events.k8s.io/v1 data sent to core/v1',
      coreV1EventView,
      { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
      'the API version in the data (events.k8s.io/v1) does not match the expected API version (v1)',
    ],
    [
      'another kind',
      eventsV1View,
      { kind: 'Pod' },
      `Pod in version "v1" cannot be handled as a Event: no kind "Pod" is registered for version "events.k8s.io/v1" in scheme ${scheme}`,
    ],
    [
      'an unknown version',
      eventsV1View,
      { apiVersion: 'events.k8s.io/v2', kind: 'Event' },
      `Event in version "v2" cannot be handled as a Event: no kind "Event" is registered for version "events.k8s.io/v2" in scheme ${scheme}`,
    ],
    [
      'a group without version',
      coreV1EventView,
      { apiVersion: 'events.k8s.io/' },
      `Event in version "" cannot be handled as a Event: no kind "Event" is registered for version "events.k8s.io/" in scheme ${scheme}`,
    ],
    [
      'a bad apiVersion',
      eventsV1View,
      { apiVersion: 'a/b/c' },
      'the object provided is unrecognized (must be of type Event): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c"})',
    ],
    [
      'a kind that is no string',
      eventsV1View,
      { kind: 5 },
      'the object provided is unrecognized (must be of type Event): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
    ],
    [
      'a body that is no object',
      eventsV1View,
      [],
      'the object provided is unrecognized (must be of type Event): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b5d)',
    ],
    [
      'a long object is summarised',
      coreV1EventView,
      { apiVersion: 'x/y/z', reason: 'a long reason text' },
      'the object provided is unrecognized (must be of type Event): unexpected GroupVersion string: x/y/z ({"apiVersion":"x/y/z","reason" ...)',
    ],
  ])('%s', (_name, view, body, message) => {
    const e = decodeError(view, body);
    expect([e.code, e.reason, e.message]).toEqual([400, 'BadRequest', message]);
  });

  it.each<[string, ResourceView<InternalEvent>, unknown]>([
    ['matching type', eventsV1View, { apiVersion: 'events.k8s.io/v1', kind: 'Event' }],
    ['no type at all', eventsV1View, {}],
    ['only a kind', coreV1EventView, { kind: 'Event' }],
    ['a group without version defaults the version', eventsV1View, { apiVersion: 'events.k8s.io/' }],
    ['a null body', coreV1EventView, null],
  ])('accepts %s', (_name, view, body) => {
    expect(view.decode(body).object).toEqual({ metadata: {} });
  });
});

describe('unknown fields for fieldValidation', () => {
  it('lists every unknown path in body order', () => {
    const body = {
      spec: { foo: 1 },
      metadata: { bogus: 1, ownerReferences: [{}, { x: 1 }], managedFields: [{ fieldsV1: { 'f:any': {} } }] },
      regarding: { foo: 2 },
      series: { state: 'Ongoing' },
      Reason: 'case matters',
      message: 'core name',
    };
    expect(eventsV1View.decode(body).unknownFields).toEqual([
      'spec',
      'metadata.bogus',
      'metadata.ownerReferences[1].x',
      'regarding.foo',
      'series.state',
      'Reason',
      'message',
    ]);
  });

  it('knows each version by its own names', () => {
    expect(
      coreV1EventView.decode({
        note: 'x',
        regarding: {},
        involvedObject: { bad: 1 },
        reportingController: 'c',
      }).unknownFields,
    ).toEqual(['note', 'regarding', 'involvedObject.bad', 'reportingController']);
  });

  it('does not report duplicate fields (the parsed body no longer has them)', () => {
    expect(eventsV1View.decode({ reason: 'x' }).duplicateFields).toBeUndefined();
  });
});
