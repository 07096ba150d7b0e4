import { describe, expect, it } from 'vitest';
import { ProtoWriter } from '../openapi/protobuf.js';
import { decodeProtobufObject } from './protobuf-body.js';

const MAGIC = Buffer.from('k8s\0', 'latin1');

function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = new ProtoWriter().string(1, apiVersion).string(2, kind).finish();
  return Buffer.concat([MAGIC, new ProtoWriter().message(1, typeMeta).message(2, raw).finish()]);
}

const entry = (k: string, v: string) => new ProtoWriter().string(1, k).string(2, v).finish();

describe('protobuf request bodies', async () => {
  it('decodes a Namespace as kubectl create namespace sends it (a zero creationTimestamp is null, as in its JSON)', async () => {
    const meta = new ProtoWriter()
      .string(1, 'demo')
      .message(8, Buffer.alloc(0))
      .messages(11, [entry('team', 'a'), entry('tier', 'b')])
      .strings(14, ['example.com/f'])
      .finish();
    const ns = new ProtoWriter()
      .message(1, meta)
      .message(2, new ProtoWriter().strings(1, ['kubernetes']).finish())
      .message(3, Buffer.alloc(0))
      .finish();
    expect(await decodeProtobufObject(envelope('v1', 'Namespace', ns), 'Namespace')).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'demo',
        creationTimestamp: null,
        labels: { team: 'a', tier: 'b' },
        finalizers: ['example.com/f'],
      },
      spec: { finalizers: ['kubernetes'] },
      // A message that is present is written, as Go's JSON writes its non-pointer status struct.
      status: {},
    });
  });

  it('decodes a ConfigMap: data, binaryData as base64, immutable, times, owner references', async () => {
    const time = new ProtoWriter().int64(1, 1_700_000_000).finish();
    const owner = new ProtoWriter()
      .string(1, 'Pod')
      .string(3, 'p')
      .string(4, 'u-1')
      .string(5, 'v1')
      .bool(6, true)
      .finish();
    const meta = new ProtoWriter()
      .string(2, 'cm-')
      .string(3, 'ns1')
      .message(8, time)
      .messages(13, [owner])
      .finish();
    const bin = new ProtoWriter()
      .string(1, 'raw')
      .message(2, Buffer.from([0, 1, 2]))
      .finish();
    const cm = new ProtoWriter()
      .message(1, meta)
      .messages(2, [entry('a', '1')])
      .messages(3, [bin])
      .bool(4, true)
      .int64(99, 7) // unknown fields are skipped, as Go's Unmarshal does
      .finish();
    expect(await decodeProtobufObject(envelope('v1', 'ConfigMap', cm), 'ConfigMap')).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        generateName: 'cm-',
        namespace: 'ns1',
        creationTimestamp: '2023-11-14T22:13:20Z',
        ownerReferences: [{ kind: 'Pod', name: 'p', uid: 'u-1', apiVersion: 'v1', controller: true }],
      },
      data: { a: '1' },
      binaryData: { raw: 'AAEC' },
      immutable: true,
    });
  });

  it('decodes the review kinds: attributes, selectors and extras (map of ExtraValue)', async () => {
    const requirement = new ProtoWriter().string(1, 'tier').string(2, 'In').strings(3, ['web']).finish();
    const attrs = new ProtoWriter()
      .string(1, 'default')
      .string(2, 'list')
      .string(5, 'pods')
      .message(9, new ProtoWriter().string(1, 'a=b').messages(2, [requirement]).finish())
      .finish();
    const extra = new ProtoWriter()
      .string(1, 'scopes')
      .message(2, new ProtoWriter().strings(1, ['view', 'edit']).finish())
      .finish();
    const spec = new ProtoWriter()
      .message(1, attrs)
      .string(3, 'jane')
      .strings(4, ['dev'])
      .messages(5, [extra])
      .string(6, 'u-1')
      .finish();
    const sar = new ProtoWriter().message(1, Buffer.alloc(0)).message(2, spec).finish();
    expect(
      await decodeProtobufObject(
        envelope('authorization.k8s.io/v1', 'SubjectAccessReview', sar),
        'SubjectAccessReview',
      ),
    ).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'list',
          resource: 'pods',
          labelSelector: {
            rawSelector: 'a=b',
            requirements: [{ key: 'tier', operator: 'In', values: ['web'] }],
          },
        },
        user: 'jane',
        groups: ['dev'],
        extra: { scopes: ['view', 'edit'] },
        uid: 'u-1',
      },
    });
    const rules = new ProtoWriter().message(2, new ProtoWriter().string(1, 'qa').finish()).finish();
    expect(
      await decodeProtobufObject(
        envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', rules),
        'SelfSubjectRulesReview',
      ),
    ).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'qa' },
    });
  });

  it('decodes the Service kubectl create service sends, target ports as numbers or names', async () => {
    const port = (p: number, target: Buffer) =>
      new ProtoWriter().string(1, `${p}`).string(2, 'TCP').int64(3, p).message(4, target).finish();
    const spec = new ProtoWriter()
      .messages(1, [
        port(80, new ProtoWriter().int64(1, 0).int64(2, 8080).finish()),
        port(443, new ProtoWriter().int64(1, 1).string(3, 'https').finish()),
      ])
      .string(4, 'NodePort')
      .finish();
    const raw = new ProtoWriter()
      .message(1, new ProtoWriter().string(1, 'edge').finish())
      .message(2, spec)
      .finish();
    expect(await decodeProtobufObject(envelope('v1', 'Service', raw), 'Service')).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'edge' },
      spec: {
        ports: [
          { name: '80', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: '443', protocol: 'TCP', port: 443, targetPort: 'https' },
        ],
        type: 'NodePort',
      },
    });
  });

  it('refuses what is not the envelope, a truncated message or a kind it does not decode, as a 400', async () => {
    const bad = async (body: Buffer) => {
      try {
        await decodeProtobufObject(body, 'ConfigMap');
      } catch (err) {
        return err as { status?: { code?: number; message?: string } };
      }
      throw new Error('decoded');
    };
    expect((await bad(Buffer.from('{"kind":"ConfigMap"}'))).status).toMatchObject({
      code: 400,
      message:
        'the object provided is unrecognized (must be of type ConfigMap): provided object is not a protobuf message',
    });
    const good = envelope(
      'v1',
      'ConfigMap',
      new ProtoWriter().message(1, new ProtoWriter().string(1, 'x').finish()).finish(),
    );
    expect((await bad(good.subarray(0, good.length - 1))).status?.message).toContain('unexpected EOF');
    expect((await bad(envelope('v1', 'Frobnicator', Buffer.alloc(0)))).status?.message).toContain(
      'no kind "Frobnicator" is registered for version "v1"',
    );
  });
});
