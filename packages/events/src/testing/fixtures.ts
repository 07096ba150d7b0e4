/** Shared test fixtures: Go's long messages written out by hand, and two valid events. */
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { makeEvent } from '../internal.js';
import type { InternalEvent } from '../types.js';

// Go's texts, written out by hand (note the two spaces before each "or").
export const qnameRegex =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
export const subdomainRegex =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

/** A valid events.k8s.io/v1-style event. */
export const newStyle: InternalEvent = makeEvent({
  metadata: { name: 'p1.17c1', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p1' },
  reason: 'Scheduled',
  message: 'Successfully assigned default/p1 to n1',
  type: 'Normal',
  eventTime: '2024-05-01T10:00:00.123456Z',
  action: 'Binding',
  reportingComponent: 'default-scheduler',
  reportingInstance: 'default-scheduler-n0',
});

/** A valid legacy (core/v1 recorder) event. */
export const oldStyle: InternalEvent = makeEvent({
  metadata: { name: 'p1.17c2', namespace: 'default' },
  involvedObject: { kind: 'Pod', namespace: 'default', name: 'p1', fieldPath: 'spec.containers{c}' },
  reason: 'Started',
  message: 'Started container c',
  source: { component: 'kubelet', host: 'n1' },
  firstTimestamp: '2024-05-01T10:00:00Z',
  lastTimestamp: '2024-05-01T10:05:00Z',
  count: 3,
  type: 'Normal',
});

export function edit(e: InternalEvent, patch: Partial<InternalEvent>): InternalEvent {
  return makeEvent({ ...e, ...patch, metadata: { ...e.metadata, ...patch.metadata } });
}

export const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
export const rc = (path: string, value: string): string =>
  `${path}: Invalid value: ${JSON.stringify(value)}: ${qnameRegex}`;
