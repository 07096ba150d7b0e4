/** Shared pieces of the client's end-to-end tests: events, namespaces, kubeconfig files, polling. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { ADMIN_TOKEN } from '@keel/testing';
import { StatusError } from '@keel/apimachinery';
import type { Connection } from '../connection-config.js';
import type { RestClient } from '../rest-client.js';

export const EVENTS = '/apis/events.k8s.io/v1';

/** A namespace no other test uses. */
export function uniqueNs(prefix = 'ns'): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

/** `/apis/events.k8s.io/v1/namespaces/<ns>/events[/<name>]`. */
export function evPath(ns: string, name?: string): string {
  return `${EVENTS}/namespaces/${ns}/events${name ? `/${name}` : ''}`;
}

/** A valid events.k8s.io/v1 Event about a Pod in `ns`. */
export function newEvent(
  ns: string,
  name: string,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name, namespace: ns },
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

/** A fresh directory for connection-config files and what they reference. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'keel-client-'));
}

/** Writes `doc` as YAML (or JSON) into `dir/name` and returns the path. */
export function writeConfig(dir: string, name: string, doc: unknown, json = false): string {
  const path = join(dir, name);
  writeFileSync(path, json ? JSON.stringify(doc) : stringify(doc));
  return path;
}

/** A one-context connection-config document. */
export function kubeconfig(
  cluster: Record<string, unknown>,
  user: Record<string, unknown>,
): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'ctx',
  };
}

/** Polls `check` until it returns true; fails after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A Connection to a TestApiServer as its admin (system:masters), trusting its CA. */
export function adminConnection(server: { url: string; ca: string }, token = ADMIN_TOKEN): Connection {
  return { server: new URL(server.url), ca: server.ca, token, insecureSkipTLSVerify: false };
}

/**
 * Writes throwaway events (in namespace `scratch`) until the server has compacted history past
 * `rv`, i.e. until an Exact list at `rv` is 410. Needs a server with a short
 * --store-compaction-interval.
 */
export async function compactPast(client: RestClient, rv: string, scratch = 'scratch'): Promise<void> {
  let n = 0;
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    await client.create(evPath(scratch), newEvent(scratch, `w-${Date.now()}-${n++}`));
    const expired = await client
      .list(evPath(scratch), { resourceVersion: rv, resourceVersionMatch: 'Exact' })
      .then(
        () => false,
        (err: unknown) => err instanceof StatusError && err.code === 410,
      );
    if (expired) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`resourceVersion ${rv} was not compacted in time`);
}
