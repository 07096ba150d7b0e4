import { request, type Dispatcher } from 'undici';
import { ADMIN_TOKEN } from '@keel/testing';
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

/**
 * Posts `count` bench Events to the server at `url`, `concurrency` at a time over `agent` (whose
 * TLS settings trust the server), as the list and profile benches fill a store.
 */
export async function postEvents(
  url: string,
  agent: Dispatcher,
  count = 10_000,
  concurrency = 32,
): Promise<void> {
  let created = 0;
  const worker = async () => {
    while (created++ < count) {
      const r = await request(url + EVENTS_PATH, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: EVENT,
        dispatcher: agent,
      });
      await r.body.dump();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
