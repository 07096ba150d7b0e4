/**
 * What every policy check shares: the result it returns, the pod it reads (metadata annotations
 * and the spec as stored JSON) and the wording helpers the real messages are built with.
 */
import { goQuote } from '@keel/apimachinery';
import { arr, obj, str, type Json } from '../json.js';

/** One check's verdict (kube's policy.CheckResult). */
export interface CheckResult {
  readonly allowed: boolean;
  /** Short, always shown: `host namespaces`, `privileged`. */
  readonly reason: string;
  /** The specifics, shown in parentheses when a single pod is checked. */
  readonly detail: string;
}

export const ALLOWED: CheckResult = { allowed: true, reason: '', detail: '' };

export function forbid(reason: string, detail: string): CheckResult {
  return { allowed: false, reason, detail };
}

/** The parts of a pod (or a pod template) the checks read. */
export interface PodView {
  readonly annotations: Readonly<Record<string, string>>;
  readonly spec: Json;
}

/** Init containers, containers, then ephemeral containers, as kube's visitContainers walks them. */
export function allContainers(spec: Json): Json[] {
  return [...arr(spec['initContainers']), ...arr(spec['containers']), ...arr(spec['ephemeralContainers'])];
}

export function nameOf(container: Json): string {
  return str(container['name']);
}

/** A container's (or the pod's) securityContext, if set. */
export function securityContext(holder: Json): Json | undefined {
  return obj(holder['securityContext']);
}

export function pluralize(singular: string, plural: string, count: number): string {
  return count === 1 ? singular : plural;
}

/** `"a", "b"` (kube's joinQuote). */
export function joinQuote(items: readonly string[]): string {
  return items.length === 0 ? '' : `"${items.join('", "')}"`;
}

/** `container "a"` / `containers "a", "b"`. */
export function containersPhrase(names: readonly string[]): string {
  return `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;
}

/** A Go string set's sorted list. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** `key="value"` as Go's %s=%q prints it. */
export function keyQuoted(key: string, value: string): string {
  return `${key}=${goQuote(value)}`;
}

/** The pod's spec.os.name is windows: the restricted Linux-only checks do not apply (1.25+). */
export function isWindowsPod(spec: Json): boolean {
  return str(obj(spec['os'])?.['name']) === 'windows';
}
