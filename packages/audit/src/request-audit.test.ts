import { describe, expect, it } from 'vitest';
import { RequestAudit, type AuditEvent, type Level, type Sink, type Stage } from './index.js';

// One request's event through its stages, with a sink that keeps what it is handed.

function audit(level: Level, omitStages: Stage[] = [], omitManagedFields = false) {
  const got: AuditEvent[] = [];
  const sink: Sink = {
    process: (events) => {
      got.push(...events);
      return Promise.resolve(true);
    },
    shutdown: () => Promise.resolve(),
  };
  const a = new RequestAudit(
    {
      auditID: 'a1',
      requestURI: '/api/v1/namespaces/default/configmaps',
      verb: 'create',
      user: { name: 'jane', uid: '', groups: ['dev'], extra: {} },
      sourceIPs: ['127.0.0.1'],
      userAgent: 'x'.repeat(1100),
      received: { seconds: 1, micros: 2 },
      objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
    },
    { level, omitStages, omitManagedFields },
    sink,
  );
  return { a, got };
}

const body = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', managedFields: [{ manager: 'm' }] },
};

describe('RequestAudit', () => {
  it('Metadata: the body completes objectRef but is not recorded; the user agent is cut at 1024', async () => {
    const { a, got } = audit('Metadata');
    await a.received();
    a.requestObject(body);
    a.responseObject({ ...body, metadata: { ...body.metadata, uid: 'u1', resourceVersion: '7' } });
    await a.complete(201);
    expect(got.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(got[0]?.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
    expect(got[1]?.objectRef).toEqual({
      resource: 'configmaps',
      namespace: 'default',
      name: 'cm',
      apiVersion: 'v1',
    });
    expect(got[1]?.requestObject).toBeUndefined();
    expect(got[1]?.responseObject).toBeUndefined();
    expect(got[1]?.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(got[1]?.userAgent).toBe(`${'x'.repeat(1024)}...TRUNCATED`);
    expect(got[1]?.user).toEqual({ username: 'jane', groups: ['dev'] });
  });

  it('Request: the object is recorded as decoded, whatever the handler does to it afterwards', async () => {
    const { a, got } = audit('Request', ['RequestReceived']);
    const decoded = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: '1' } };
    a.requestObject(decoded);
    // Admission and the registry go on to fill in and change the object.
    decoded.metadata = { name: 'cm', uid: 'u1', resourceVersion: '9' } as typeof decoded.metadata;
    decoded.data.a = 'changed';
    await a.complete(201);
    expect(got[0]?.requestObject).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cm' },
      data: { a: '1' },
    });
  });

  it('a patch is the requestObject from Request on, and names nothing', async () => {
    const { a, got } = audit('Request', ['RequestReceived']);
    a.requestPatch({ metadata: { name: 'other', labels: { x: 'y' } } });
    await a.complete(200);
    expect(got[0]?.requestObject).toEqual({ metadata: { name: 'other', labels: { x: 'y' } } });
    expect(got[0]?.objectRef?.name).toBeUndefined();
  });

  it('RequestResponse with omitManagedFields records both bodies without managedFields', async () => {
    const { a, got } = audit('RequestResponse', ['RequestReceived'], true);
    await a.received();
    a.requestObject(body);
    a.responseObject({ kind: 'ConfigMapList', items: [body] });
    await a.complete(200);
    expect(got).toHaveLength(1);
    expect(got[0]?.requestObject).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });
    expect(got[0]?.responseObject).toEqual({
      kind: 'ConfigMapList',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } }],
    });
  });

  it('annotations keep their first value and only reach later stages', async () => {
    const { a, got } = audit('Metadata');
    await a.received();
    a.annotate('authorization.k8s.io/decision', 'allow');
    a.annotate('authorization.k8s.io/decision', 'forbid');
    await a.complete(200);
    expect(got[0]?.annotations).toBeUndefined();
    expect(got[1]?.annotations).toEqual({ 'authorization.k8s.io/decision': 'allow' });
  });

  it('Panic replaces ResponseComplete with a 500 InternalError', async () => {
    const { a, got } = audit('Metadata', ['RequestReceived']);
    await a.panic(new Error('boom'));
    await a.complete(500);
    expect(got.map((e) => e.stage)).toEqual(['Panic']);
    expect(got[0]?.responseStatus).toEqual({
      metadata: {},
      status: 'Failure',
      message: "APIServer panic'd: boom",
      reason: 'InternalError',
      code: 500,
    });
  });

  it('a response that never started is recorded as closed early; a watch gets ResponseStarted', async () => {
    const early = audit('Metadata', ['RequestReceived']);
    await early.a.complete(undefined);
    expect(early.got[0]?.responseStatus).toEqual({
      metadata: {},
      status: 'Success',
      message: 'Connection closed early',
      code: 200,
    });
    const watch = audit('Metadata', ['RequestReceived']);
    await watch.a.responseStarted(200);
    await watch.a.complete(200);
    expect(watch.got.map((e) => e.stage)).toEqual(['ResponseStarted', 'ResponseComplete']);
  });

  it('an impersonated user is recorded beside the authenticated one', async () => {
    const { a, got } = audit('Metadata', ['RequestReceived']);
    a.impersonated({ name: 'bob', uid: '', groups: ['system:authenticated'], extra: {} });
    await a.complete(200);
    expect(got[0]?.user).toEqual({ username: 'jane', groups: ['dev'] });
    expect(got[0]?.impersonatedUser).toEqual({ username: 'bob', groups: ['system:authenticated'] });
  });
});
