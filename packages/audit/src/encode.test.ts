import { describe, expect, it } from 'vitest';
import { encodeEvent, encodeEventList, legacyLine, type AuditEvent } from './index.js';

const event: AuditEvent = {
  level: 'Metadata',
  auditID: '0b3c-1',
  stage: 'ResponseComplete',
  requestURI: '/api/v1/namespaces/default/pods?limit=500',
  verb: 'list',
  user: { username: 'jane', uid: '42', groups: ['dev', 'system:authenticated'] },
  sourceIPs: ['10.0.0.5', '127.0.0.1'],
  userAgent: 'kubectl/v1.34.1 (linux/amd64) kubernetes/abc',
  objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' },
  responseStatus: { metadata: {}, code: 200 },
  requestReceivedTimestamp: { seconds: 1714557600, micros: 123450 },
  stageTimestamp: { seconds: 1714557600, micros: 140000 },
};

describe('legacy line (kube audit.EventString)', () => {
  it('quotes each field as Go %q, groups escaped inside', () => {
    const line = legacyLine(event);
    // The line is in the server's local zone; in UTC it is exactly Go's RFC3339Nano.
    const ts = new Date(0).getTimezoneOffset() === 0 ? '2024-05-01T10:00:00.12345Z' : line.split(' ')[0];
    expect(line).toBe(
      `${ts} AUDIT: id="0b3c-1" stage="ResponseComplete" ip="10.0.0.5" method="list" user="jane" ` +
        'groups="\\"dev\\",\\"system:authenticated\\"" as="<self>" asgroups="<lookup>" ' +
        'user-agent="kubectl/v1.34.1 (linux/amd64) kubernetes/abc" namespace="default" ' +
        'uri="/api/v1/namespaces/default/pods?limit=500" response="200"',
    );
  });

  it('writes the time in the local zone with its offset, as a Go time.Now() prints', () => {
    const saved = process.env['TZ'];
    process.env['TZ'] = 'Asia/Kolkata';
    try {
      expect(legacyLine(event).split(' ')[0]).toBe('2024-05-01T15:30:00.12345+05:30');
      process.env['TZ'] = 'UTC';
      expect(legacyLine(event).split(' ')[0]).toBe('2024-05-01T10:00:00.12345Z');
    } finally {
      if (saved === undefined) delete process.env['TZ'];
      else process.env['TZ'] = saved;
    }
  });

  it('fills the placeholders for what is missing', () => {
    const line = legacyLine({
      ...event,
      stage: 'RequestReceived',
      user: {},
      sourceIPs: [],
      userAgent: 'a "quoted"\tagent',
      objectRef: undefined,
      responseStatus: undefined,
      impersonatedUser: { username: 'bob', groups: ['g1'] },
    });
    expect(line).toContain(
      'ip="<unknown>" method="list" user="<none>" groups="<none>" as="bob" asgroups="\\"g1\\"" ' +
        'user-agent="a \\"quoted\\"\\tagent" namespace="<none>"',
    );
    expect(line.endsWith('response="<deferred>"')).toBe(true);
  });
});

describe('JSON encoding', () => {
  it('writes Go struct order with MicroTime stamps and HTML-safe escapes', () => {
    const text = encodeEvent(
      { ...event, annotations: { 'authorization.k8s.io/reason': '<allowed> & ok' } },
      'audit.k8s.io/v1',
    );
    expect(text).toBe(
      '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"0b3c-1","stage":"ResponseComplete",' +
        '"requestURI":"/api/v1/namespaces/default/pods?limit=500","verb":"list",' +
        '"user":{"username":"jane","uid":"42","groups":["dev","system:authenticated"]},' +
        '"sourceIPs":["10.0.0.5","127.0.0.1"],"userAgent":"kubectl/v1.34.1 (linux/amd64) kubernetes/abc",' +
        '"objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"},' +
        '"responseStatus":{"metadata":{},"code":200},' +
        '"requestReceivedTimestamp":"2024-05-01T10:00:00.123450Z","stageTimestamp":"2024-05-01T10:00:00.140000Z",' +
        '"annotations":{"authorization.k8s.io/reason":"\\u003callowed\\u003e \\u0026 ok"}}',
    );
  });

  it('v1beta1 adds metadata.creationTimestamp and timestamp in whole seconds', () => {
    const wire = JSON.parse(encodeEvent(event, 'audit.k8s.io/v1beta1')) as Record<string, unknown>;
    expect(Object.keys(wire).slice(0, 5)).toEqual(['kind', 'apiVersion', 'metadata', 'level', 'timestamp']);
    expect(wire['metadata']).toEqual({ creationTimestamp: '2024-05-01T10:00:00Z' });
    expect(wire['timestamp']).toBe('2024-05-01T10:00:00Z');
  });

  it('an EventList for the webhook', () => {
    const list = JSON.parse(encodeEventList([event, event], 'audit.k8s.io/v1')) as Record<string, unknown>;
    expect(list).toMatchObject({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', metadata: {} });
    expect((list['items'] as unknown[]).length).toBe(2);
  });

  it('keeps Go order and sorted map keys however the event was filled in', () => {
    const text = encodeEvent(
      {
        ...event,
        user: { username: 'jane', extra: { zeta: ['1'], alpha: ['<2>'] } },
        // uid and resourceVersion arrive last, from the decoded body.
        objectRef: { subresource: 'status', resource: 'pods', name: 'p', uid: 'u-1', resourceVersion: '7' },
        annotations: { 'z.example/b': '1', 'a.example/a': '2' },
      },
      'audit.k8s.io/v1',
    );
    expect(text).toContain('"user":{"username":"jane","extra":{"alpha":["\\u003c2\\u003e"],"zeta":["1"]}}');
    expect(text).toContain(
      '"objectRef":{"resource":"pods","name":"p","uid":"u-1","resourceVersion":"7","subresource":"status"}',
    );
    expect(text).toContain('"annotations":{"a.example/a":"2","z.example/b":"1"}}');
    // Go's omitempty: an impersonated user without groups has no groups member.
    const impersonated = encodeEvent(
      { ...event, impersonatedUser: { username: 'bob', groups: [] } },
      'audit.k8s.io/v1',
    );
    expect(impersonated).toContain('"impersonatedUser":{"username":"bob"}');
  });

  it('escapes strings as Go does: quotes, controls, HTML characters, lone surrogates', () => {
    const agent = 'a "q" \\ \t \u2028 <b> \ud800 \u{1f600}';
    const wire = encodeEvent({ ...event, userAgent: agent }, 'audit.k8s.io/v1');
    expect(wire).toContain('"userAgent":"a \\"q\\" \\\\ \\t \\u2028 \\u003cb\\u003e \\ufffd \u{1f600}"');
    expect((JSON.parse(wire) as { userAgent: string }).userAgent).toBe(agent.replace('\ud800', '\ufffd'));
  });

  it('carries the objects and a Status with details as they are', () => {
    const wire = JSON.parse(
      encodeEvent(
        {
          ...event,
          requestObject: { kind: 'Pod', metadata: { name: 'p' } },
          responseObject: { kind: 'Status', code: 409 },
          responseStatus: {
            metadata: {},
            status: 'Failure',
            message: 'pods "p" already exists',
            reason: 'AlreadyExists',
            details: { name: 'p', kind: 'pods' },
            code: 409,
          },
        },
        'audit.k8s.io/v1',
      ),
    ) as Record<string, unknown>;
    expect(wire['requestObject']).toEqual({ kind: 'Pod', metadata: { name: 'p' } });
    expect(wire['responseObject']).toEqual({ kind: 'Status', code: 409 });
    expect(Object.keys(wire['responseStatus'] as object)).toEqual([
      'metadata',
      'status',
      'message',
      'reason',
      'details',
      'code',
    ]);
  });
});
