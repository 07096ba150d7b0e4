/**
 * Shared pieces of the garbage collector suites: paths, owner references to created objects, and
 * waiting for what the collector does in the background.
 */
import type { TestApiServer } from '@keel/testing';
import { create, type Json } from './core.js';

export const cmPath = (ns: string, name?: string, query = '') =>
  `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}${query ? `?${query}` : ''}`;
export const secretPath = (ns: string, name?: string) =>
  `/api/v1/namespaces/${ns}/secrets${name ? `/${name}` : ''}`;
export const meta = (o: Json) => o['metadata'] as Json;

/** An ownerReference to a created object (a ConfigMap unless `kind` says otherwise). */
export function ownerRef(owner: Json, over: Json = {}): Json {
  return {
    apiVersion: typeof owner['apiVersion'] === 'string' ? owner['apiVersion'] : 'v1',
    kind: typeof owner['kind'] === 'string' ? owner['kind'] : 'ConfigMap',
    name: String(meta(owner)['name']),
    uid: String(meta(owner)['uid']),
    ...over,
  };
}

export function configMap(name: string, metadata: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...metadata }, data: { k: name } };
}

export function secret(name: string, metadata: Json = {}): Json {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, ...metadata }, stringData: { k: name } };
}

/** Creates a ConfigMap and returns it (with its UID, for references to it). */
export function createConfigMap(server: TestApiServer, ns: string, name: string, metadata: Json = {}) {
  return create(server, cmPath(ns), configMap(name, metadata));
}

/** Polls until `probe` returns something, for what a controller does in the background. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until GET `path` answers 404. */
export function gone(server: TestApiServer, path: string): Promise<true> {
  return eventually(`${path} to be deleted`, async () =>
    (await server.request('GET', path)).status === 404 ? true : undefined,
  );
}

/** The object at `path` (200 expected). */
export async function read(server: TestApiServer, path: string): Promise<Json> {
  const res = await server.request('GET', path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
  return res.json as Json;
}
