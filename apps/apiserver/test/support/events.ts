/**
 * Shared pieces of the Event API end-to-end suites: the two stores every behaviour runs on,
 * server start-up, paths of both API versions, event factories, expected Status bodies and a
 * line-by-line reader for watch streams.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { TestApiServer, type ApiResponse } from '@keel/testing';

export { ADMIN_TOKEN } from '@keel/testing';
export { WatchStream, type WatchEvent } from './watch-stream.js';

export type StoreKind = 'memory' | 'redis';

/** `describe.each(STORES)` runs a suite once per store. */
export const STORES: readonly StoreKind[] = ['memory', 'redis'];

/** Starts a built API server on the given store and waits until it is ready. */
export async function startServer(store: StoreKind, args: readonly string[] = []): Promise<TestApiServer> {
  const server = await TestApiServer.start({
    args,
    ...(store === 'redis' ? { redisUrl: inject('redisUrl') } : {}),
  });
  await server.ready();
  return server;
}

/** A namespace (DNS label) no other test uses. */
export function uniqueNs(prefix = 'ns'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export const EVENTS = '/apis/events.k8s.io/v1';
export const CORE = '/api/v1';

/** `/apis/events.k8s.io/v1/namespaces/<ns>/events[/<name>]`. */
export function evPath(ns: string, name?: string, query = ''): string {
  return `${EVENTS}/namespaces/${ns}/events${name ? `/${name}` : ''}${query ? `?${query}` : ''}`;
}

/** `/api/v1/namespaces/<ns>/events[/<name>]`. */
export function corePath(ns: string, name?: string, query = ''): string {
  return `${CORE}/namespaces/${ns}/events${name ? `/${name}` : ''}${query ? `?${query}` : ''}`;
}

export type Json = Record<string, unknown>;

/** A valid events.k8s.io/v1 Event about a Pod in `ns`; `over` replaces top-level fields. */
export function newEvent(ns: string, name: string, over: Json = {}): Json {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: '2024-05-01T10:00:00.123456Z',
    action: 'Scheduled',
    reason: 'Started',
    type: 'Normal',
    reportingController: 'keel.io/scheduler',
    reportingInstance: 'scheduler-1',
    regarding: { kind: 'Pod', namespace: ns, name: 'pod-1', apiVersion: 'v1' },
    note: 'pod started',
    ...over,
  };
}

/** A legacy core/v1 Event (no eventTime) about a Pod in `ns`. */
export function newCoreEvent(ns: string, name: string, over: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name },
    involvedObject: { kind: 'Pod', namespace: ns, name: 'pod-1' },
    reason: 'Pulled',
    message: 'image pulled',
    source: { component: 'nodeagent', host: 'node-1' },
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:00:05Z',
    count: 1,
    type: 'Normal',
    ...over,
  };
}

/** A Failure Status as the server writes it; `details` only when the constructor sets one. */
export function failure(code: number, reason: string, message: string, details?: Json): Json {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

export function notFoundEvents(name: string, core = false): Json {
  return core
    ? failure(404, 'NotFound', `events "${name}" not found`, { name, kind: 'events' })
    : failure(404, 'NotFound', `events.events.k8s.io "${name}" not found`, {
        name,
        group: 'events.k8s.io',
        kind: 'events',
      });
}

/** One cause of a 422: `[field, reason, message]`. */
export type Cause = readonly [field: string, reason: string, message: string];

/** The 422 `Event "<name>" is invalid: ...` body for these causes, in order. */
export function invalidEvent(name: string, causes: readonly Cause[]): Json {
  const texts = [...new Set(causes.map(([f, , m]) => `${f}: ${m}`))];
  const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return failure(422, 'Invalid', `Event "${name}" is invalid: ${agg}`, {
    // details.name is omitempty.
    ...(name ? { name } : {}),
    kind: 'Event',
    causes: causes.map(([field, reason, message]) => ({ reason, message, field })),
  });
}

/** The 422 for invalid query options, e.g. `CreateOptions.meta.k8s.io "" is invalid: ...`. */
export function invalidOptions(kind: string, causes: readonly Cause[]): Json {
  const texts = causes.map(([f, , m]) => `${f}: ${m}`);
  const agg = texts.length === 1 ? texts[0] : `[${texts.join(', ')}]`;
  return failure(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: ${agg}`, {
    group: 'meta.k8s.io',
    kind,
    causes: causes.map(([field, reason, message]) => ({ reason, message, field })),
  });
}

/** The body as an object (the test fails readably when it is not JSON). */
export function body(res: ApiResponse): Json {
  if (typeof res.json !== 'object' || res.json === null) {
    throw new Error(`not a JSON object (status ${res.status}): ${res.text}`);
  }
  return res.json as Json;
}

export function meta(obj: Json): Json {
  return obj['metadata'] as Json;
}

export function items(list: Json): Json[] {
  return list['items'] as Json[];
}

export function names(list: Json): string[] {
  return items(list).map((i) => String(meta(i)['name']));
}

/** Creates events.k8s.io/v1 events and returns the created objects (fails on anything but 201). */
export async function createEvents(
  server: TestApiServer,
  ns: string,
  bodies: readonly Json[],
): Promise<Json[]> {
  const out: Json[] = [];
  for (const b of bodies) {
    const res = await server.request('POST', evPath(ns), { body: b });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    out.push(body(res));
  }
  return out;
}

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
