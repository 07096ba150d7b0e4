/**
 * Shared pieces of the core-resource suites (nodes, pods, binding, leases): object factories,
 * paths and the request shorthands they all use.
 */
import { randomBytes } from 'node:crypto';
import type { ApiResponse, TestApiServer } from '@keel/testing';

export type Json = Record<string, unknown>;

export const SMP = 'application/strategic-merge-patch+json';
export const MERGE = 'application/merge-patch+json';

/** A name (DNS label) no other test uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export function podPath(ns: string, name?: string, sub?: string, query = ''): string {
  return `/api/v1/namespaces/${ns}/pods${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}${query ? `?${query}` : ''}`;
}

export function nodePath(name?: string, sub?: string, query = ''): string {
  return `/api/v1/nodes${name ? `/${name}` : ''}${sub ? `/${sub}` : ''}${query ? `?${query}` : ''}`;
}

/** A minimal valid pod; `spec` members replace the defaults. */
export function podBody(name: string, spec: Json = {}, metadata: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, ...metadata },
    spec: { containers: [{ name: 'app', image: 'registry.example/app:1.0' }], ...spec },
  };
}

export function nodeBody(name: string, over: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    ...over,
  };
}

export function bindingBody(pod: string, node: string, metadata: Json = {}): Json {
  return {
    apiVersion: 'v1',
    kind: 'Binding',
    metadata: { name: pod, ...metadata },
    target: { apiVersion: 'v1', kind: 'Node', name: node },
  };
}

/** The request's JSON body; fails the test with the response text when the status is not `want`. */
export async function expectStatus(r: Promise<ApiResponse>, want: number): Promise<Json> {
  const res = await r;
  if (res.status !== want) throw new Error(`expected ${want}, got ${res.status}: ${res.text}`);
  return res.json as Json;
}

/** Creates an object (201 expected) and returns it. */
export function create(server: TestApiServer, path: string, body: Json): Promise<Json> {
  return expectStatus(server.request('POST', path, { body }), 201);
}

/** The names of a list's items. */
export function names(list: Json): string[] {
  return (list['items'] as { metadata: { name: string } }[]).map((i) => i.metadata.name);
}

/**
 * Creates a namespace no other test uses and returns its name: a pod needs one (its `default`
 * ServiceAccount, which the server creates in every namespace, must exist).
 */
export async function newNamespace(server: TestApiServer, prefix = 'ns'): Promise<string> {
  const name = unique(prefix);
  await create(server, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}
