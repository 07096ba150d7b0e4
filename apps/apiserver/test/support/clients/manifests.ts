/** Event manifests as users write them for kubectl, and the same objects for the API clients. */
import { stringify as toYaml } from 'yaml';
import { newCoreEvent, newEvent, type Json } from '../events.js';

export { newCoreEvent, newEvent, type Json };

/** YAML with every string value quoted: Go's YAML 1.1 reader takes a bare `yes` for a bool. */
function stringify(obj: unknown): string {
  return toYaml(obj, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
}

/** An events.k8s.io/v1 Event manifest in `ns` (YAML, namespace in metadata as kubectl users write it). */
export function eventManifest(
  ns: string,
  name: string,
  labels: Record<string, string> = {},
  over: Json = {},
) {
  const ev = newEvent(ns, name, over);
  return stringify({ ...ev, metadata: { name, namespace: ns, labels, ...(over['metadata'] as Json) } });
}

/** A core v1 Event manifest in `ns`. */
export function coreEventManifest(ns: string, name: string, over: Json = {}): string {
  const ev = newCoreEvent(ns, name, over);
  return stringify({ ...ev, metadata: { name, namespace: ns } });
}

/** The fields of a managedFields list by manager (for asserting ownership). */
export function fieldsByManager(obj: Json): Record<string, Json> {
  const meta = (obj['metadata'] ?? {}) as Json;
  const entries = (meta['managedFields'] ?? []) as Json[];
  return Object.fromEntries(
    entries.map((e) => [`${String(e['manager'])}/${String(e['operation'])}`, e['fieldsV1'] as Json]),
  );
}
