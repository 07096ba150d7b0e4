/** Test helpers: pods as the server holds them after decode (and create). */
import type { Pod } from '../pod-types.js';
import { podView } from '../pod-view.js';

export const container = { name: 'app', image: 'nginx:1.25' };

/** Decodes a v1 Pod body (defaults applied). */
export function decodedPod(body: Record<string, unknown>): Pod {
  return podView.decode({ apiVersion: 'v1', kind: 'Pod', ...body }).object;
}

/** A created pod: decoded, prepared for create, with the system metadata a store sets. */
export function createdPod(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Pod {
  const pod = decodedPod({ metadata: { name: 'p1', namespace: 'default', ...metadata }, spec: { containers: [container], ...spec } });
  podView.prepareForCreate(pod);
  pod.metadata.uid ??= 'uid-1';
  pod.metadata.resourceVersion ??= '10';
  pod.metadata.creationTimestamp ??= '2024-05-01T10:00:00Z';
  return pod;
}
