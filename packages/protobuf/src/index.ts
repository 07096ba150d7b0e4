/**
 * The Kubernetes protobuf encoding (`application/vnd.kubernetes.protobuf`) of the built-in kinds,
 * converted to and from their JSON wire form.
 *
 * An object is the 4 bytes `k8s\0`, then a runtime.Unknown whose typeMeta names apiVersion and
 * kind and whose raw holds the object's generated message. A watch stream
 * (`;stream=watch`) is frames of a 4-byte big-endian length and a bare meta/v1 WatchEvent, whose
 * object.raw is an object encoded as above (magic included), as the real server's raw stream
 * serializer writes them.
 *
 * The messages come from the vendored generated.proto files (proto/); JSON names, inlined
 * structs and the zero values Go's JSON leaves out come from the Go struct tags (see
 * scripts/gen-protobuf.ts). Nothing is loaded until the first loadProtobuf(): protobufjs and the
 * descriptor cost tens of milliseconds, which a server that never sees a protobuf client does
 * not pay.
 */
import type { INamespace, Root, Type, Writer as WriterType } from 'protobufjs';
import { Codec } from './codec.js';
import { indexKinds } from './kinds.js';

export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** The Content-Type of a protobuf watch response. */
export const PROTOBUF_WATCH = `${PROTOBUF};stream=watch`;
export const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Json = Record<string, unknown>;

/** A body that is not a decodable object; the message is the reason, for a 400. */
export class ProtobufError extends Error {}

export interface KubeProtobuf {
  /** Whether `apiVersion`/`kind` has a message (Table, for one, has none). */
  hasKind(apiVersion: string, kind: string): boolean;
  /** The enveloped encoding of a JSON object carrying apiVersion and kind. */
  encode(obj: Json): Buffer;
  /** The JSON wire form, with the envelope's apiVersion and kind, of an enveloped object. */
  decode(body: Buffer): Json;
  /** One watch frame: length prefix, then WatchEvent{type, object.raw = encode(object)}. */
  encodeWatchEvent(type: string, object: Json): Buffer;
  /** The bare message of a list member (no envelope), for callers that cache items. */
  encodeItem(apiVersion: string, kind: string, member: Json): Uint8Array;
  /**
   * The enveloped `<Kind>List` from its JSON without items (apiVersion, kind, metadata) and its
   * items' messages from encodeItem: the same bytes as encode() of the whole list.
   */
  encodeList(list: Json, items: readonly Uint8Array[]): Buffer;
}

const RUNTIME = 'k8s.io.apimachinery.pkg.runtime';
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

function create(
  root: Root,
  Writer: typeof WriterType,
  schema: { readonly JSON_FIELDS: string; readonly LIST_MESSAGES: readonly string[] },
): KubeProtobuf {
  const codec = new Codec(root, schema.JSON_FIELDS, schema.LIST_MESSAGES);
  const kinds = indexKinds(root);
  const unknown = root.lookupType(`${RUNTIME}.Unknown`);
  const watchEvent = root.lookupType(`${META}.WatchEvent`);

  const typeOf = (apiVersion: string, kind: string): Type => {
    const t = kinds.lookup(apiVersion, kind);
    if (!t) throw new ProtobufError(`no kind "${kind}" is registered for version "${apiVersion}"`);
    return t;
  };

  const typeMeta = (obj: Json): { apiVersion: string; kind: string } => ({
    apiVersion: typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '',
    kind: typeof obj['kind'] === 'string' ? obj['kind'] : '',
  });
  const wrap = (meta: { apiVersion: string; kind: string }, raw: Uint8Array): Buffer => {
    const envelope = unknown.encode({ typeMeta: meta, raw, contentEncoding: '', contentType: '' }).finish();
    return Buffer.concat([MAGIC, envelope]);
  };
  const encode = (obj: Json): Buffer => {
    const meta = typeMeta(obj);
    const type = typeOf(meta.apiVersion, meta.kind);
    return wrap(meta, type.encode(codec.toProto(type, obj)).finish());
  };

  return {
    hasKind: (apiVersion, kind) => kinds.lookup(apiVersion, kind) !== undefined,
    encode,
    decode(body) {
      if (body.length < MAGIC.length || !body.subarray(0, MAGIC.length).equals(MAGIC))
        throw new ProtobufError('provided object is not a protobuf message');
      try {
        const env = unknown.decode(body.subarray(MAGIC.length)) as unknown as Json;
        const typeMeta = (env['typeMeta'] ?? {}) as Json;
        const apiVersion = typeof typeMeta['apiVersion'] === 'string' ? typeMeta['apiVersion'] : '';
        const kind = typeof typeMeta['kind'] === 'string' ? typeMeta['kind'] : '';
        const type = typeOf(apiVersion, kind);
        const raw = env['raw'] instanceof Uint8Array ? env['raw'] : new Uint8Array(0);
        const msg = type.decode(raw) as unknown as Json;
        return { apiVersion, kind, ...codec.toJson(type, msg) };
      } catch (err) {
        if (err instanceof ProtobufError) throw err;
        // protobufjs reports a truncated message as a RangeError ("index out of range").
        if (err instanceof RangeError) throw new ProtobufError('unexpected EOF');
        throw new ProtobufError((err as Error).message);
      }
    },
    encodeItem(apiVersion, kind, member) {
      const type = typeOf(apiVersion, kind);
      return type.encode(codec.toProto(type, member)).finish();
    },
    encodeList(list, items) {
      const meta = typeMeta(list);
      const type = typeOf(meta.apiVersion, meta.kind);
      const itemsField = type.fields['items'];
      if (!itemsField) throw new ProtobufError(`${meta.kind} has no items`);
      const w = Writer.create();
      type.encode(codec.toProto(type, { ...list, items: undefined }), w);
      for (const item of items) w.uint32((itemsField.id << 3) | 2).bytes(item);
      return wrap(meta, w.finish());
    },
    encodeWatchEvent(type, object) {
      const event = watchEvent.encode({ type, object: { raw: encode(object) } }).finish();
      const frame = Buffer.allocUnsafe(4 + event.length);
      frame.writeUInt32BE(event.length, 0);
      frame.set(event, 4);
      return frame;
    },
  };
}

let loading: Promise<KubeProtobuf> | undefined;
let loaded: KubeProtobuf | undefined;

/** Loads protobufjs and the descriptor once; every later call returns the same codec. */
export function loadProtobuf(): Promise<KubeProtobuf> {
  loading ??= (async () => {
    const [pb, schema] = await Promise.all([import('protobufjs/light.js'), import('./schema.generated.js')]);
    // protobufjs is CommonJS: Node gives its exports as the default export.
    const { Root, Writer } = pb.default;
    const root = Root.fromJSON(JSON.parse(schema.DESCRIPTOR) as INamespace);
    loaded = create(root, Writer, schema);
    return loaded;
  })();
  return loading;
}

/** The codec once loadProtobuf() has finished; undefined before. */
export function loadedProtobuf(): KubeProtobuf | undefined {
  return loaded;
}
