import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  corePath,
  createEvents,
  evPath,
  failure,
  invalidEvent,
  newCoreEvent,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  type Cause,
  type Json,
} from './support/events.js';

const REQUIRED = 'FieldValueRequired';
const INVALID = 'FieldValueInvalid';
const QUALIFIED_NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const MISMATCH = (v: string): Cause => [
  'involvedObject.namespace',
  INVALID,
  `Invalid value: "${v}": does not match event.namespace`,
];
const tooLong = (field: string, n: number): Cause => [
  field,
  INVALID,
  `Invalid value: "": can have at most ${n} characters`,
];
const unset = (field: string): Cause => [field, INVALID, 'Invalid value: "": needs to be unset'];

/** [title, event overrides (ns → fields), expected causes] for creates through events.k8s.io/v1. */
const createCases: [string, (ns: string) => Json, Cause[]][] = [
  [
    'nothing but a name',
    () => ({
      eventTime: undefined,
      action: undefined,
      reason: undefined,
      type: undefined,
      reportingController: undefined,
      reportingInstance: undefined,
      regarding: undefined,
      note: undefined,
    }),
    [
      MISMATCH(''),
      ['eventTime', REQUIRED, 'Required value'],
      ['type', INVALID, 'Invalid value: "": has invalid value: '],
    ],
  ],
  [
    'eventTime set, every required string empty',
    (ns) => ({
      action: '',
      reason: '',
      type: '',
      reportingController: '',
      reportingInstance: '',
      regarding: { namespace: ns },
    }),
    [
      ['reportingController', REQUIRED, 'Required value'],
      ['reportingController', INVALID, 'Invalid value: "": name part must be non-empty'],
      ['reportingController', INVALID, `Invalid value: "": ${QUALIFIED_NAME_REGEX}`],
      ['reportingInstance', REQUIRED, 'Required value'],
      ['action', REQUIRED, 'Required value'],
      ['reason', REQUIRED, 'Required value'],
      ['type', INVALID, 'Invalid value: "": has invalid value: '],
    ],
  ],
  [
    '129-byte action, reason and reportingInstance (multi-byte characters count as bytes)',
    () => ({ action: 'a'.repeat(129), reason: 'é'.repeat(65), reportingInstance: 'i'.repeat(129) }),
    [tooLong('reportingInstance', 128), tooLong('action', 128), tooLong('reason', 128)],
  ],
  ['a note over 1024 bytes', () => ({ note: 'é'.repeat(513) }), [tooLong('message', 1024)]],
  [
    'a reportingController that is not a qualified name',
    () => ({ reportingController: 'bad controller' }),
    [['reportingController', INVALID, `Invalid value: "bad controller": ${QUALIFIED_NAME_REGEX}`]],
  ],
  [
    'type "normal" (case-sensitive)',
    () => ({ type: 'normal' }),
    [['type', INVALID, 'Invalid value: "": has invalid value: normal']],
  ],
  [
    'a series with count 1 and no lastObservedTime',
    () => ({ series: { count: 1 } }),
    [
      ['series.count', INVALID, 'Invalid value: "": should be at least 2'],
      ['series.lastObservedTime', REQUIRED, 'Required value'],
    ],
  ],
  [
    'every deprecated field set',
    () => ({
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-01T00:00:00Z',
      deprecatedCount: 2,
      deprecatedSource: { host: 'n' },
    }),
    [unset('firstTimestamp'), unset('lastTimestamp'), unset('count'), unset('source')],
  ],
  [
    'no regarding namespace outside default and kube-system',
    () => ({ regarding: { kind: 'Pod', name: 'p' } }),
    [MISMATCH('')],
  ],
  [
    'a name that is no DNS subdomain',
    () => ({ metadata: { name: 'Bad_Name' } }),
    [['metadata.name', INVALID, `Invalid value: "Bad_Name": ${SUBDOMAIN}`]],
  ],
  [
    'no name and no generateName',
    () => ({ metadata: {} }),
    [['metadata.name', REQUIRED, 'Required value: name or generateName is required']],
  ],
];

describe.each(STORES)('Event validation (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  it.each(createCases)('events.k8s.io/v1 create: %s → 422', async (_title, over, causes) => {
    const ns = uniqueNs();
    const ev = { ...newEvent(ns, 'bad'), ...over(ns) };
    const res = await server.request('POST', evPath(ns), { body: ev });
    expect(res.status).toBe(422);
    const name = ((ev['metadata'] as Json)['name'] as string | undefined) ?? '';
    expect(res.json).toEqual(invalidEvent(name, causes));
    expect((await server.request('GET', evPath(ns))).json).toMatchObject({ items: [] });
  });

  it.each([
    [
      '128-byte action, reason and reportingInstance',
      { action: 'a'.repeat(128), reason: 'é'.repeat(64), reportingInstance: 'i'.repeat(128) },
    ],
    ['a 1024-byte note', { note: 'é'.repeat(512) }],
    [
      'type Warning and a valid series',
      { type: 'Warning', series: { count: 2, lastObservedTime: '2024-05-01T10:00:01Z' } },
    ],
    [
      'regarding in another namespace (not checked when eventTime is set)',
      { regarding: { kind: 'Pod', namespace: 'elsewhere', name: 'p' } },
    ],
  ])('events.k8s.io/v1 create accepts %s', async (_title, over) => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), { body: newEvent(ns, 'ok', over) });
    expect(res.status).toBe(201);
  });

  it.each(['default', 'kube-system'])('an event about a cluster-scoped object may live in %s', async (ns) => {
    const name = uniqueNs('node-event');
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, name, { regarding: { kind: 'Node', name: 'node-1' } }),
    });
    expect(res.status).toBe(201);
    await server.request('DELETE', evPath(ns, name));
  });

  it('an invalid namespace fails the legacy subdomain rule and the strict label rule', async () => {
    const ns = 'Bad_NS';
    const res = await server.request('POST', evPath(ns), { body: newEvent(ns, 'x') });
    expect(res.json).toEqual(
      invalidEvent('x', [
        ['namespace', INVALID, `Invalid value: "Bad_NS": ${SUBDOMAIN}`],
        ['metadata.namespace', INVALID, `Invalid value: "Bad_NS": ${LABEL}`],
      ]),
    );
  });

  it('core/v1 runs only the legacy rules: odd types, uppercase names and deprecated fields are fine', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', corePath(ns), {
      body: newCoreEvent(ns, 'Upper_Case', { type: 'Weird', message: 'x'.repeat(5000) }),
    });
    expect(res.status).toBe(201);
    expect(body(res)).toMatchObject({ type: 'Weird', count: 1, metadata: { name: 'Upper_Case' } });
  });

  it.each([
    [
      'an involvedObject in another namespace',
      (ns: string) => newCoreEvent(ns, 'x', { involvedObject: { namespace: 'other' } }),
      [MISMATCH('other')],
    ],
    [
      'a name with %',
      (ns: string) => newCoreEvent(ns, 'a%b'),
      [['metadata.name', INVALID, `Invalid value: "a%b": may not contain '%'`] as Cause],
    ],
    [
      'eventTime without the reporting fields (path reportingComponent)',
      (ns: string) => newCoreEvent(ns, 'x', { eventTime: '2024-05-01T10:00:00.000000Z', reason: '' }),
      [
        ['reportingComponent', REQUIRED, 'Required value'],
        ['reportingComponent', INVALID, 'Invalid value: "": name part must be non-empty'],
        ['reportingComponent', INVALID, `Invalid value: "": ${QUALIFIED_NAME_REGEX}`],
        ['reportingInstance', REQUIRED, 'Required value'],
        ['action', REQUIRED, 'Required value'],
        ['reason', REQUIRED, 'Required value'],
      ] as Cause[],
    ],
  ])('core/v1 create: %s → 422', async (_t, make, causes) => {
    const ns = uniqueNs();
    const ev = make(ns);
    const res = await server.request('POST', corePath(ns), { body: ev });
    expect(res.json).toEqual(invalidEvent(String((ev['metadata'] as Json)['name']), causes));
  });

  it.each([
    ['2024-05-01T10:00:00Z', '2024-05-01T10:00:00.000000Z'],
    ['2024-05-01T10:00:00.1Z', '2024-05-01T10:00:00.100000Z'],
    ['2024-05-01T10:00:00.123Z', '2024-05-01T10:00:00.123000Z'],
    ['2024-05-01T10:00:00.123456Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T10:00:00.123456789Z', '2024-05-01T10:00:00.123456Z'],
    ['2024-05-01T12:00:00.5+02:00', '2024-05-01T10:00:00.500000Z'],
    ['2024-05-01T05:30:00.25-04:30', '2024-05-01T10:00:00.250000Z'],
  ])('MicroTime %s is accepted and written as %s (both versions)', async (input, written) => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, 'mt', { eventTime: input, series: { count: 2, lastObservedTime: input } }),
    });
    expect(res.status).toBe(201);
    expect(body(res)['eventTime']).toBe(written);
    expect(body(res)['series']).toEqual({ count: 2, lastObservedTime: written });
    expect(body(await server.request('GET', corePath(ns, 'mt')))['eventTime']).toBe(written);
  });

  it('core Time fields are written as RFC3339 seconds in UTC', async () => {
    const ns = uniqueNs();
    const res = await server.request('POST', corePath(ns), {
      body: newCoreEvent(ns, 't', { firstTimestamp: '2024-05-01T12:00:00.987+02:00' }),
    });
    expect(body(res)['firstTimestamp']).toBe('2024-05-01T10:00:00Z');
  });

  it.each([
    [
      'yesterday',
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    ],
    [
      '2024-05-01T10:00:00',
      'parsing time "2024-05-01T10:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    ],
  ])('an unparseable eventTime %j is 400', async (input, err) => {
    const ns = uniqueNs();
    const res = await server.request('POST', evPath(ns), {
      body: newEvent(ns, 'bad-time', { eventTime: input }),
    });
    expect(res.json).toEqual(
      failure(400, 'BadRequest', `Event in version "v1" cannot be handled as a Event: ${err}`),
    );
  });

  it('events.k8s.io/v1 updates keep everything but series, labels and annotations immutable', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'imm')]);
    const res = await server.request('PUT', evPath(ns, 'imm'), {
      body: { ...created, note: 'changed', reason: 'Other', action: 'Killed' },
    });
    expect(res.status).toBe(422);
    const immutable = (f: string, v: string): Cause => [
      f,
      INVALID,
      `Invalid value: "${v}": field is immutable`,
    ];
    expect(res.json).toEqual(
      invalidEvent('imm', [
        immutable('reason', 'Other'),
        immutable('message', 'changed'),
        immutable('reason', 'Other'),
        immutable('action', 'Killed'),
      ]),
    );
    const moved = await server.request('PUT', evPath(ns, 'imm'), {
      body: { ...created, regarding: { kind: 'Pod', namespace: ns, name: 'pod-2' } },
    });
    expect(moved.status).toBe(422);
    const causes = (body(moved)['details'] as { causes: Json[] }).causes;
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: 'involvedObject', reason: INVALID });
    expect(String(causes[0]!['message'])).toMatch(/: field is immutable$/);
    const labelled = await server.request('PUT', evPath(ns, 'imm'), {
      body: {
        ...created,
        metadata: { ...(created!['metadata'] as Json), labels: { a: 'b' }, annotations: { c: 'd' } },
      },
    });
    expect(labelled.status).toBe(200);
  });

  it('events.k8s.io/v1 updates re-validate a changed series', async () => {
    const ns = uniqueNs();
    const [created] = await createEvents(server, ns, [newEvent(ns, 'ser')]);
    const res = await server.request('PUT', evPath(ns, 'ser'), {
      body: { ...created, series: { count: 1 } },
    });
    expect(res.json).toEqual(
      invalidEvent('ser', [
        ['series.count', INVALID, 'Invalid value: "": should be at least 2'],
        ['series.lastObservedTime', REQUIRED, 'Required value'],
      ]),
    );
  });
});
