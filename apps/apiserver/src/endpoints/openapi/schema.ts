/**
 * One schema source for both OpenAPI documents. Schemas are written in the swagger 2.0 dialect
 * with `$ref` holding a bare definition name; the renderers turn that into
 * `#/definitions/<name>` (v2) or `#/components/schemas/<name>` (v3, where a reference with
 * sibling keywords is wrapped in `allOf`, as kube-openapi does).
 */

export type Schema = { readonly [key: string]: unknown };
export type Definitions = Readonly<Record<string, Schema>>;

export type Gvk = { readonly group: string; readonly kind: string; readonly version: string };

export function str(description: string, extra: Schema = {}): Schema {
  return { description, type: 'string', ...extra };
}

export function int32(description: string, extra: Schema = {}): Schema {
  return { description, type: 'integer', format: 'int32', ...extra };
}

export function int64(description: string, extra: Schema = {}): Schema {
  return { description, type: 'integer', format: 'int64', ...extra };
}

export function bool(description: string): Schema {
  return { description, type: 'boolean' };
}

export function ref(name: string, description?: string, extra: Schema = {}): Schema {
  return { ...(description === undefined ? {} : { description }), $ref: name, ...extra };
}

export function arrayOf(items: Schema, description: string, extra: Schema = {}): Schema {
  return { description, type: 'array', items, ...extra };
}

export function stringMap(description: string): Schema {
  return { description, type: 'object', additionalProperties: { type: 'string', default: '' } };
}

export function object(description: string, properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { description, type: 'object', properties, ...extra };
}

export function gvkExtension(...gvks: Gvk[]): Schema {
  return { 'x-kubernetes-group-version-kind': gvks };
}

/** Every definition `root` reaches through `$ref`, itself included. */
export function closure(defs: Definitions, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (typeof node === 'object' && node !== null) {
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string') enter(v);
        else visit(v);
      }
    }
  };
  const enter = (name: string): void => {
    if (seen.has(name)) return;
    const def = defs[name];
    if (!def) throw new Error(`openapi: no schema for ${name}`);
    seen.add(name);
    visit(def);
  };
  roots.forEach(enter);
  return [...seen].sort();
}

function rewrite(node: unknown, refFor: (name: string) => string, wrap: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, refFor, wrap));
  if (typeof node !== 'object' || node === null) return node;
  const entries = Object.entries(node);
  const target = (node as { $ref?: unknown }).$ref;
  if (typeof target === 'string') {
    const siblings = entries.filter(([k]) => k !== '$ref');
    const r = { $ref: refFor(target) };
    if (!wrap || siblings.length === 0) return { ...Object.fromEntries(siblings), ...r };
    return { ...Object.fromEntries(siblings.map(([k, v]) => [k, rewrite(v, refFor, wrap)])), allOf: [r] };
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, rewrite(v, refFor, wrap)]));
}

/** Swagger 2.0 form. */
export function toV2(schema: unknown): unknown {
  return rewrite(schema, (n) => `#/definitions/${n}`, false);
}

/** OpenAPI 3.0 form. */
export function toV3(schema: unknown): unknown {
  return rewrite(schema, (n) => `#/components/schemas/${n}`, true);
}
