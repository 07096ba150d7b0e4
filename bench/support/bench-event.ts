/** The Event every create benchmark posts, and where. */
export const EVENTS_PATH = '/apis/events.k8s.io/v1/namespaces/default/events';
export const EVENT = JSON.stringify({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { generateName: 'bench-', namespace: 'default' },
  eventTime: '2026-11-21T00:00:00.000000Z',
  action: 'Bench',
  reason: 'Bench',
  note: 'a benchmark event',
  type: 'Normal',
  reportingController: 'keel.dev/bench',
  reportingInstance: 'bench-1',
  regarding: { kind: 'Pod', namespace: 'default', name: 'p1' },
});
