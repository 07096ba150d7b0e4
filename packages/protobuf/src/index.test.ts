import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { loadedProtobuf, loadProtobuf, PROTOBUF_WATCH } from './index.js';
import { DESCRIPTOR } from './schema.generated.js';
import { CASES } from './testing/kind-cases.js';
import { all, at, envelope, fields, map, Msg, str, unwrap } from './testing/wire.js';

type Json = Record<string, unknown>;

function valueAt(raw: Uint8Array, path: readonly number[]): string | number | undefined {
  const v = at(raw, ...path);
  return v instanceof Uint8Array ? Buffer.from(v).toString('utf8') : v;
}

describe('@keel/protobuf', () => {
  it('loads nothing until asked, then one codec for every caller', async () => {
    expect(loadedProtobuf()).toBeUndefined();
    const [a, b] = await Promise.all([loadProtobuf(), loadProtobuf()]);
    expect(a).toBe(b);
    expect(loadedProtobuf()).toBe(a);
  });

  it.each(CASES)(
    'encodes %# by the .proto field numbers and decodes it back unchanged',
    async (obj, path, want) => {
      const pb = await loadProtobuf();
      const body = pb.encode(obj);
      const { apiVersion, kind, raw } = unwrap(body);
      expect([apiVersion, kind]).toEqual([obj['apiVersion'], obj['kind']]);
      expect(valueAt(raw, path)).toEqual(want);
      if (obj['metadata'] && (obj['metadata'] as Json)['name']) {
        expect(str(raw, 1, 1)).toBe((obj['metadata'] as Json)['name']);
        // ObjectMeta: creationTimestamp (8) is a Time of whole seconds (1).
        expect(at(raw, 1, 8, 1)).toBe(Date.parse('2024-05-06T07:08:09Z') / 1000);
        expect(map(raw, 1, 11)).toEqual({ app: 'web' });
      }
      expect(pb.decode(body)).toEqual(obj);
    },
  );

  it('writes the special types as their Go messages', async () => {
    const pb = await loadProtobuf();
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        managedFields: [{ manager: 'm', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
      },
      spec: {
        containers: [
          {
            name: 'c',
            resources: { requests: { cpu: '100m' } },
            livenessProbe: { httpGet: { port: 8080 } },
            readinessProbe: { httpGet: { port: 'http' } },
          },
        ],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    };
    const { raw } = unwrap(pb.encode(pod));
    // FieldsV1 (ObjectMeta 17 → ManagedFieldsEntry 7 → Raw 1) carries the JSON text.
    expect(JSON.parse(str(raw, 1, 17, 7, 1) ?? '')).toEqual({ 'f:spec': {} });
    // ResourceList: map<string, Quantity{string = 1}>.
    const requests = all(raw, 2, 2, 8, 2)[0] as Uint8Array;
    expect([str(requests, 1), str(requests, 2, 1)]).toEqual(['cpu', '100m']);
    // IntOrString: type 0 + intVal, or type 1 + strVal (Probe inlines ProbeHandler as field 1).
    expect([at(raw, 2, 2, 10, 1, 2, 2, 1), at(raw, 2, 2, 10, 1, 2, 2, 2)]).toEqual([0, 8080]);
    expect([at(raw, 2, 2, 11, 1, 2, 2, 1), str(raw, 2, 2, 11, 1, 2, 2, 3)]).toEqual([1, 'http']);
    // Volume inlines VolumeSource as field 2: emptyDir is its field 2.
    expect(at(raw, 2, 1, 2, 2)).toBeInstanceOf(Uint8Array);
    expect(pb.decode(pb.encode(pod))).toEqual(pod);

    // MicroTime keeps microseconds; Duration is nanoseconds.
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'l' },
      spec: { renewTime: '2024-05-06T07:08:09.123456Z' },
    };
    const leaseRaw = unwrap(pb.encode(lease)).raw;
    expect([at(leaseRaw, 2, 4, 1), at(leaseRaw, 2, 4, 2)]).toEqual([1714979289, 123456000]);
    expect(pb.decode(pb.encode(lease))).toEqual(lease);
  });

  it("writes a non-pointer Time's null as Go writes its zero value, and leaves a pointer's out", async () => {
    const pb = await loadProtobuf();
    const rs = {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', deletionTimestamp: null },
      spec: { template: { metadata: { creationTimestamp: null, labels: { a: 'b' } } } },
    };
    const { raw } = unwrap(pb.encode(rs));
    // ReplicaSet.spec(2).template(3).metadata(1).creationTimestamp(8): present, empty.
    expect((at(raw, 2, 3, 1, 8) as Uint8Array).length).toBe(0);
    // ObjectMeta.deletionTimestamp(9) is a *Time: nil, not written.
    expect(at(raw, 1, 9)).toBeUndefined();
    expect(pb.decode(pb.encode(rs))).toEqual({ ...rs, metadata: { name: 'web' } });
    // A client-go Event's `eventTime: null` (MicroTime, non-pointer) comes back as null.
    const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, eventTime: null, count: 1 };
    expect(pb.decode(pb.encode(event))).toEqual(event);
  });

  it('decodes what Go writes: zero values of omitempty fields left out, a zero Time null, pointers kept, unknown fields skipped', async () => {
    const pb = await loadProtobuf();
    // Go's generated Marshal writes every non-pointer field, empty ones too; a zero Time is an
    // empty message, which Go reads as the zero time and its JSON writes as null.
    const meta = new Msg().string(1, 'web').string(2, '').string(3, 'ns1').msg(8, new Msg());
    const spec = new Msg()
      .int(1, 0) // replicas *int32: present, so kept even at 0
      .int(4, 0) // minReadySeconds int32 omitempty: left out
      .msg(2, new Msg()) // selector *LabelSelector, set but empty
      .int(99, 7); // unknown
    const body = envelope('apps/v1', 'ReplicaSet', new Msg().msg(1, meta).msg(2, spec).msg(3, new Msg()));
    expect(pb.decode(body)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'web', namespace: 'ns1', creationTimestamp: null },
      spec: { replicas: 0, selector: {} },
      status: {},
    });
    // No items on the wire is Go's nil slice: JSON's null where the field has no omitempty
    // (ClusterRole.rules, `json:"rules"`), left out where it has (ObjectMeta.finalizers).
    const role = envelope(
      'rbac.authorization.k8s.io/v1',
      'ClusterRole',
      new Msg().msg(1, new Msg().string(1, 'aggregated')),
    );
    expect(pb.decode(role)).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'aggregated' },
      rules: null,
    });
  });

  it('refuses what is not a decodable object with the reason', async () => {
    const pb = await loadProtobuf();
    expect(() => pb.decode(Buffer.from('{"kind":"Pod"}'))).toThrow(
      'provided object is not a protobuf message',
    );
    expect(() => pb.decode(envelope('v1', 'Frobnicator', new Msg()))).toThrow(
      'no kind "Frobnicator" is registered for version "v1"',
    );
    const good = envelope('v1', 'Pod', new Msg().msg(1, new Msg().string(1, 'x')));
    expect(() => pb.decode(good.subarray(0, good.length - 2))).toThrow('unexpected EOF');
    expect(pb.hasKind('meta.k8s.io/v1', 'Table')).toBe(false);
    expect(pb.hasKind('v1', 'Pod')).toBe(true);
  });

  it('assembles a list from cached item messages into the same bytes as the whole list', async () => {
    const pb = await loadProtobuf();
    const items = [{ metadata: { name: 'a' }, data: { k: 'v' } }, { metadata: { name: 'b' } }];
    const head = {
      apiVersion: 'v1',
      kind: 'ConfigMapList',
      metadata: { resourceVersion: '9', continue: 'c' },
    };
    const whole = pb.encode({ ...head, items });
    const parts = pb.encodeList(
      head,
      items.map((i) => pb.encodeItem('v1', 'ConfigMap', i)),
    );
    expect(parts.equals(whole)).toBe(true);
    expect(all(unwrap(parts).raw, 2)).toHaveLength(2);
  });

  it('frames a watch event: length, then a bare WatchEvent whose object is an enveloped object', async () => {
    const pb = await loadProtobuf();
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', resourceVersion: '7' } };
    const frame = pb.encodeWatchEvent('ADDED', pod);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    const event = frame.subarray(4);
    expect(str(event, 1)).toBe('ADDED');
    const inner = unwrap(at(event, 2, 1) as Uint8Array);
    expect([inner.apiVersion, inner.kind, str(inner.raw, 1, 1)]).toEqual(['v1', 'Pod', 'p']);
    expect(PROTOBUF_WATCH).toBe('application/vnd.kubernetes.protobuf;stream=watch');
  });

  it('ships a descriptor generated from the vendored .proto files (pnpm gen:protobuf)', () => {
    const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'proto');
    const files: string[] = [];
    const walk = (d: string) => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (f.endsWith('.proto')) files.push(p);
      }
    };
    walk(dir);
    const root = new protobuf.Root();
    for (const f of files) protobuf.parse(readFileSync(f, 'utf8'), root, { keepCase: true });
    expect(root.toJSON()).toEqual(JSON.parse(DESCRIPTOR));
    expect(fields(new Msg().string(1, 'x').finish()).get(1)).toHaveLength(1);
  });
});
