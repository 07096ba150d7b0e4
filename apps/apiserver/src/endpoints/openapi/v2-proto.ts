/**
 * The swagger 2.0 document as gnostic's openapi_v2.Document protobuf, which is what clients ask
 * /openapi/v2 for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`): kubectl's
 * client-side validation and explain read the definitions from it, and older kubectl (before
 * OpenAPI v3) cannot create from a manifest without it. Field numbers are OpenAPIv2.proto's.
 * Free-form values (default, enum, example, x-* extensions) travel as YAML text in `Any.yaml`.
 */
import { stringify as toYaml } from 'yaml';
import { ProtoWriter } from './protobuf.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const obj = (v: unknown): Obj => (isObj(v) ? v : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
const w = () => new ProtoWriter();

/** Any{yaml}: a value as gnostic keeps what it does not model. */
function anyValue(v: unknown): Buffer {
  return w().string(2, toYaml(v)).finish();
}

function namedAny(name: string, v: unknown): Buffer {
  return w().string(1, name).message(2, anyValue(v)).finish();
}

/** The `x-*` members of an object, in order, as NamedAny. */
function extensions(o: Obj): Buffer[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) => namedAny(k, v));
}

function named(name: string, value: Buffer): Buffer {
  return w().string(1, name).message(2, value).finish();
}

function schema(s: Obj): Buffer {
  const out = w()
    .string(1, str(s['$ref']))
    .string(2, str(s['format']))
    .string(3, str(s['title']))
    .string(4, str(s['description']));
  if (s['default'] !== undefined) out.message(5, anyValue(s['default']));
  out
    .double(6, num(s['multipleOf']))
    .double(7, num(s['maximum']))
    .bool(8, bool(s['exclusiveMaximum']))
    .double(9, num(s['minimum']))
    .bool(10, bool(s['exclusiveMinimum']))
    .int64(11, num(s['maxLength']))
    .int64(12, num(s['minLength']))
    .string(13, str(s['pattern']))
    .int64(14, num(s['maxItems']))
    .int64(15, num(s['minItems']))
    .bool(16, bool(s['uniqueItems']))
    .int64(17, num(s['maxProperties']))
    .int64(18, num(s['minProperties']))
    .strings(19, strs(s['required']));
  if (Array.isArray(s['enum'])) out.messages(20, s['enum'].map(anyValue));
  const ap = s['additionalProperties'];
  if (isObj(ap)) out.message(21, w().message(1, schema(ap)).finish());
  else if (typeof ap === 'boolean') out.message(21, w().bool(2, ap).finish());
  const type = s['type'];
  if (type !== undefined)
    out.message(
      22,
      w()
        .strings(1, Array.isArray(type) ? strs(type) : strs([type]))
        .finish(),
    );
  const items = s['items'];
  if (items !== undefined) {
    const list = Array.isArray(items) ? items : [items];
    out.message(
      23,
      w()
        .messages(
          1,
          list.map((i) => schema(obj(i))),
        )
        .finish(),
    );
  }
  if (Array.isArray(s['allOf']))
    out.messages(
      24,
      s['allOf'].map((x) => schema(obj(x))),
    );
  if (isObj(s['properties'])) {
    const props = Object.entries(s['properties']).map(([k, v]) => named(k, schema(obj(v))));
    out.message(25, w().messages(1, props).finish());
  }
  out.string(26, str(s['discriminator'])).bool(27, bool(s['readOnly']));
  if (s['example'] !== undefined) out.message(30, anyValue(s['example']));
  return out.messages(31, extensions(s)).finish();
}

/** Query, path, header and formData parameters share a layout apart from two extra fields. */
function nonBodyParameter(p: Obj): Buffer {
  const where = str(p['in']) ?? '';
  // Query and formData sub-schemas have allow_empty_value (5), shifting the rest by one.
  const wide = where === 'query' || where === 'formData';
  const at = (n: number) => (wide ? n + 1 : n);
  const sub = w()
    .bool(1, bool(p['required']))
    .string(2, where)
    .string(3, str(p['description']))
    .string(4, str(p['name']));
  if (wide) sub.bool(5, bool(p['allowEmptyValue']));
  sub.string(at(5), str(p['type'])).string(at(6), str(p['format'])).string(at(8), str(p['collectionFormat']));
  if (p['default'] !== undefined) sub.message(at(9), anyValue(p['default']));
  sub.bool(at(19), bool(p['uniqueItems']));
  if (Array.isArray(p['enum'])) sub.messages(at(20), p['enum'].map(anyValue));
  sub.messages(at(22), extensions(p));
  const field = { header: 1, formData: 2, query: 3, path: 4 }[where] ?? 3;
  return w().message(field, sub.finish()).finish();
}

/** A Parameter: a body parameter (1) or any other (2). */
function parameter(p: Obj): Buffer {
  if (p['in'] !== 'body') return w().message(2, nonBodyParameter(p)).finish();
  const body = w()
    .string(1, str(p['description']))
    .string(2, str(p['name']))
    .string(3, 'body')
    .bool(4, bool(p['required']));
  if (isObj(p['schema'])) body.message(5, schema(p['schema']));
  return w()
    .message(1, body.messages(6, extensions(p)).finish())
    .finish();
}

/** A ParametersItem: a Parameter (1) or a JsonReference (2). */
function parametersItem(p: Obj): Buffer {
  const ref = str(p['$ref']);
  if (ref === undefined) return w().message(1, parameter(p)).finish();
  return w()
    .message(2, w().string(1, ref).string(2, str(p['description'])).finish())
    .finish();
}

function responses(r: Obj): Buffer {
  const codes = Object.entries(r)
    .filter(([k]) => !k.startsWith('x-'))
    .map(([code, v]) => {
      const resp = obj(v);
      const ref = str(resp['$ref']);
      const value = ref
        ? w().message(2, w().string(1, ref).finish()).finish()
        : w()
            .message(
              1,
              (() => {
                const out = w().string(1, str(resp['description']));
                if (isObj(resp['schema'])) out.message(2, w().message(1, schema(resp['schema'])).finish());
                return out.messages(5, extensions(resp)).finish();
              })(),
            )
            .finish();
      return named(code, value);
    });
  return w().messages(1, codes).messages(2, extensions(r)).finish();
}

function operation(o: Obj): Buffer {
  const out = w()
    .strings(1, strs(o['tags']))
    .string(2, str(o['summary']))
    .string(3, str(o['description']))
    .string(5, str(o['operationId']))
    .strings(6, strs(o['produces']))
    .strings(7, strs(o['consumes']));
  if (Array.isArray(o['parameters']))
    out.messages(
      8,
      o['parameters'].map((p) => parametersItem(obj(p))),
    );
  if (isObj(o['responses'])) out.message(9, responses(o['responses']));
  return out
    .strings(10, strs(o['schemes']))
    .bool(11, bool(o['deprecated']))
    .messages(13, extensions(o))
    .finish();
}

const METHODS: readonly [string, number][] = [
  ['get', 2],
  ['put', 3],
  ['post', 4],
  ['delete', 5],
  ['options', 6],
  ['head', 7],
  ['patch', 8],
];

function pathItem(p: Obj): Buffer {
  const out = w().string(1, str(p['$ref']));
  for (const [method, field] of METHODS) if (isObj(p[method])) out.message(field, operation(p[method]));
  if (Array.isArray(p['parameters']))
    out.messages(
      9,
      p['parameters'].map((x) => parametersItem(obj(x))),
    );
  return out.messages(10, extensions(p)).finish();
}

function securityDefinition(d: Obj): Buffer {
  const fields = w().string(1, str(d['type']));
  if (d['type'] === 'apiKey') {
    fields.string(2, str(d['name'])).string(3, str(d['in'])).string(4, str(d['description']));
    return w()
      .message(2, fields.messages(5, extensions(d)).finish())
      .finish();
  }
  // Basic authentication: the only other scheme a platform API server describes.
  fields.string(2, str(d['description']));
  return w()
    .message(1, fields.messages(3, extensions(d)).finish())
    .finish();
}

/** The whole document, protobuf-encoded. */
export function openapiV2Protobuf(doc: Obj): Buffer {
  const info = obj(doc['info']);
  const out = w()
    .string(1, str(doc['swagger']))
    .message(
      2,
      w()
        .string(1, str(info['title']))
        .string(2, str(info['version']))
        .string(3, str(info['description']))
        .messages(7, extensions(info))
        .finish(),
    )
    .string(3, str(doc['host']))
    .string(4, str(doc['basePath']))
    .strings(5, strs(doc['schemes']))
    .strings(6, strs(doc['consumes']))
    .strings(7, strs(doc['produces']));
  const paths = Object.entries(obj(doc['paths']));
  out.message(
    8,
    w()
      .messages(1, extensions(obj(doc['paths'])))
      .messages(
        2,
        paths.filter(([k]) => !k.startsWith('x-')).map(([k, v]) => named(k, pathItem(obj(v)))),
      )
      .finish(),
  );
  const defs = Object.entries(obj(doc['definitions'])).map(([k, v]) => named(k, schema(obj(v))));
  out.message(9, w().messages(1, defs).finish());
  if (isObj(doc['parameters'])) {
    const params = Object.entries(doc['parameters']).map(([k, v]) => named(k, parameter(obj(v))));
    out.message(10, w().messages(1, params).finish());
  }
  if (Array.isArray(doc['security'])) {
    out.messages(
      12,
      doc['security'].map((req) =>
        w()
          .messages(
            1,
            Object.entries(obj(req)).map(([k, v]) => named(k, w().strings(1, strs(v)).finish())),
          )
          .finish(),
      ),
    );
  }
  if (isObj(doc['securityDefinitions'])) {
    const defsSec = Object.entries(doc['securityDefinitions']).map(([k, v]) =>
      named(k, securityDefinition(obj(v))),
    );
    out.message(13, w().messages(1, defsSec).finish());
  }
  return out.messages(16, extensions(doc)).finish();
}
