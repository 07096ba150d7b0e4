import { goQuote } from '@keel/apimachinery';
/**
 * Key/value serialisation as klog's structured text logging does it (k8s.io/klog/v2/internal/serialize),
 * so Keel's lines read and grep like the real daemons'. Nothing here throws: a value that cannot be
 * printed is written as `"<panic: reason>"`, which is what klog prints when a String() method panics.
 */

export type KeyValues = Readonly<Record<string, unknown>>;
export type Entry = readonly [key: string, value: unknown];

/**
 * klog's writeStringValue: a one-line string is quoted; a multi-line one is printed as-is between
 * `<` and ` >`, each line indented by a tab, so stack dumps and YAML stay readable.
 */
function stringValue(s: string): string {
  if (!s.includes('\n')) return '=' + goQuote(s);
  const lines = s.split('\n');
  const endsWithBreak = lines[lines.length - 1] === '';
  if (endsWithBreak) lines.pop();
  return '=<\n' + lines.map((l) => '\t' + l + '\n').join('') + ' >';
}

function panicText(err: unknown): string {
  let why: string;
  try {
    why = err instanceof Error ? err.message : String(err);
  } catch {
    why = 'unprintable';
  }
  return `<panic: ${why}>`;
}

/** Error-like: the message only, never the stack, as klog prints `err.Error()`. */
function errorText(err: Error): string {
  const message: unknown = err.message;
  return typeof message === 'string' ? message : String(message);
}

function hasCustomToString(v: object): boolean {
  // A class with its own toString() is the analogue of a Go fmt.Stringer (Duration prints "5m0s").
  return !Array.isArray(v) && typeof v.toString === 'function' && v.toString !== Object.prototype.toString;
}

/** Values that are not objects, as Go's `%+v` prints their nearest equivalents; undefined for objects. */
function primitiveText(v: unknown): string | undefined {
  switch (typeof v) {
    case 'string':
      return stringValue(v);
    case 'number':
      if (Number.isFinite(v) || Number.isNaN(v)) return '=' + String(v);
      return v > 0 ? '=+Inf' : '=-Inf';
    case 'bigint':
    case 'boolean':
      return '=' + String(v);
    case 'symbol':
      return '=' + v.toString();
    case 'function':
      return `=<func ${v.name || 'anonymous'}>`;
    case 'undefined':
      return '=<nil>';
    default:
      return v === null ? '=<nil>' : undefined;
  }
}

/** The right-hand side of `key=value`, including the `=`. */
function valueText(v: unknown): string {
  const primitive = primitiveText(v);
  if (primitive !== undefined || typeof v !== 'object' || v === null) return primitive ?? '=<nil>';
  if (v instanceof Error) return stringValue(errorText(v));
  if (v instanceof Date) return stringValue(Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString());
  if (v instanceof Uint8Array) return '=' + goQuote(Buffer.from(v).toString('utf8'));
  if (hasCustomToString(v)) {
    const text: unknown = (v as { toString(): unknown }).toString();
    return stringValue(typeof text === 'string' ? text : safeJson(v));
  }
  return '=' + safeJson(v);
}

/** ` key=value`, with the leading space klog puts before every pair. */
export function formatKeyValue(key: string, value: unknown): string {
  let text: string;
  try {
    text = valueText(value);
  } catch (err) {
    text = '=' + goQuote(panicText(err));
  }
  return ' ' + key + text;
}

/**
 * The pairs of a kv argument in insertion order. Tolerates anything a JavaScript caller may pass
 * (null, a Proxy whose traps throw, throwing getters), because logging must never fail its caller.
 */
export function entriesOf(kv: unknown): Entry[] {
  if (kv === undefined || kv === null) return [];
  try {
    return Object.keys(kv).map((k): Entry => {
      try {
        return [k, (kv as Record<string, unknown>)[k]];
      } catch (err) {
        return [k, new Error(panicText(err))];
      }
    });
  } catch (err) {
    return [['<kv>', new Error(panicText(err))]];
  }
}

/** Child values first, then the call's own; a key given at the call replaces the child's (klog MergeKVs). */
export function mergeEntries(base: readonly Entry[], call: readonly Entry[]): readonly Entry[] {
  if (call.length === 0) return base;
  if (base.length === 0) return call;
  const overridden = new Set(call.map(([k]) => k));
  return [...base.filter(([k]) => !overridden.has(k)), ...call];
}

interface Frame {
  readonly holder: unknown;
  readonly original: unknown;
}

/** JSON for plain data; survives cycles, bigint, Map/Set and nested errors instead of throwing. */
function safeJson(v: object): string {
  const stack: Frame[] = [];
  const replacer = function (this: unknown, _key: string, value: unknown): unknown {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'function') return `<func ${value.name || 'anonymous'}>`;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value !== 'object' || value === null) return value;
    while (stack.length > 0 && stack[stack.length - 1]?.holder !== this) stack.pop();
    if (stack.some((f) => f.original === value)) return '[Circular]';
    let out: unknown = value;
    if (value instanceof Error) return errorText(value);
    if (value instanceof Map) out = Object.fromEntries(value);
    else if (value instanceof Set) out = [...value];
    stack.push({ holder: out, original: value });
    return out;
  };
  try {
    return JSON.stringify(v, replacer) ?? '<nil>';
  } catch (err) {
    return goQuote(panicText(err));
  }
}
