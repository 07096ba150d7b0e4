import type { AddressInfo } from 'node:net';
import express from 'express';
import { coreV1EventView, eventsV1View, makeEvent, type InternalEvent } from '@keel/events';
import { isBadRequest } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import { writeObject } from './respond.js';
import {
  negotiateTable,
  parseIncludeObject,
  tableForList,
  tableForObject,
  tableWatchEncoder,
  wantsTable,
  type IncludeObject,
} from './table.js';

const KUBECTL_GET =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const now = new Date('2024-05-01T10:10:00Z');

function event(name: string, rv: string): InternalEvent {
  return makeEvent({
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: rv,
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    involvedObject: { kind: 'Pod', name: 'p1', namespace: 'default' },
    reason: 'Scheduled',
    message: 'Successfully assigned',
    type: 'Normal',
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:05:00Z',
    count: 3,
    source: { component: 'sched' },
  });
}

const metadataOf = (name: string, rv: string) => ({
  name,
  namespace: 'default',
  uid: `uid-${name}`,
  resourceVersion: rv,
  creationTimestamp: '2024-05-01T10:00:00Z',
});
const cells = (name: string) => [
  '5m',
  'Normal',
  'Scheduled',
  'pod/p1',
  '',
  'sched',
  'Successfully assigned',
  '10m',
  3,
  name,
];

describe('Table negotiation', () => {
  it.each([
    [KUBECTL_GET, 'v1'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json', 'v1beta1'],
    ['application/json;g=meta.k8s.io;v=v1;as=Table', 'v1'],
    ['application/json; as=Table; v=v1; g=meta.k8s.io', 'v1'],
    [
      'application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io',
      'v1',
    ],
    // The first servable clause decides: a PartialObjectMetadataList clause is served, so no Table.
    [
      'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io',
      undefined,
    ],
    ['application/json,application/json;as=Table;v=v1;g=meta.k8s.io', undefined],
    ['application/json;q=0.5,application/json;as=Table;v=v1;g=meta.k8s.io', 'v1'],
    ['application/json;as=Table;v=v2;g=meta.k8s.io,application/json', undefined],
    ['application/json;as=Table;v=v1;g=example.com', undefined],
    ['application/json', undefined],
    ['*/*', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('Accept %s asks for Table %s', (accept, version) => {
    expect(negotiateTable(accept)).toBe(version);
    expect(wantsTable(accept)).toBe(version !== undefined);
  });

  it.each([
    [null, 'Metadata'],
    ['', 'Metadata'],
    ['None', 'None'],
    ['Metadata', 'Metadata'],
    ['Object', 'Object'],
  ])('includeObject=%s is %s', (value, want) => {
    expect(parseIncludeObject(value)).toBe(want);
  });

  it.each(['none', 'All', 'object'])('includeObject=%s is the real 400', (value) => {
    let err: unknown;
    try {
      parseIncludeObject(value);
    } catch (e) {
      err = e;
    }
    expect(isBadRequest(err)).toBe(true);
    expect((err as Error).message).toBe(`unrecognized includeObject value: "${value}"`);
  });
});

describe('tableForList', () => {
  const items = [event('a', '4'), event('b', '5')];

  it.each<[IncludeObject, (name: string, rv: string) => unknown]>([
    [
      'Metadata',
      (n, rv) => ({
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: metadataOf(n, rv),
      }),
    ],
    ['None', () => null],
    ['Object', (n, rv) => eventsV1View.encode(event(n, rv))],
  ])('includeObject=%s', (includeObject, object) => {
    const table = tableForList(
      eventsV1View,
      items,
      { resourceVersion: '812', continue: '' },
      { includeObject, now },
    );
    expect(table).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: '812' },
      columnDefinitions: eventsV1View.tableColumns,
      rows: [
        { cells: cells('a'), object: object('a', '4') },
        { cells: cells('b'), object: object('b', '5') },
      ],
    });
  });

  it('keeps continue and remainingItemCount, names v1beta1 when asked, and has rows: [] when empty', () => {
    const table = tableForList(
      coreV1EventView,
      [],
      { resourceVersion: '9', continue: 'tok', remainingItemCount: 2 },
      { includeObject: 'Metadata', now, version: 'v1beta1' },
    );
    expect(JSON.stringify(table)).toBe(
      `{"kind":"Table","apiVersion":"meta.k8s.io/v1beta1","metadata":{"resourceVersion":"9","continue":"tok","remainingItemCount":2},"columnDefinitions":${JSON.stringify(coreV1EventView.tableColumns)},"rows":[]}`,
    );
  });

  it('uses the view columns: ten Event columns, the wide ones at priority 1', () => {
    const table = tableForList(eventsV1View, items, {}, { includeObject: 'None', now });
    expect(table.columnDefinitions?.map((c) => `${c.name}:${c.priority}`)).toEqual([
      'Last Seen:0',
      'Type:0',
      'Reason:0',
      'Object:0',
      'Subobject:1',
      'Source:1',
      'Message:0',
      'First Seen:1',
      'Count:1',
      'Name:1',
    ]);
    expect(table.metadata).toEqual({});
  });
});

describe('tableForObject and watch events', () => {
  it('a single object carries its resourceVersion and one row', () => {
    const meta = {
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: metadataOf('a', '4'),
    };
    expect(
      tableForObject(coreV1EventView, event('a', '4'), {
        includeObject: 'Metadata',
        now,
        version: 'v1beta1',
      }),
    ).toEqual({
      kind: 'Table',
      apiVersion: 'meta.k8s.io/v1beta1',
      metadata: { resourceVersion: '4' },
      columnDefinitions: coreV1EventView.tableColumns,
      rows: [{ cells: cells('a'), object: meta }],
    });
  });

  it('only the first watch event carries columnDefinitions; later ones send null', () => {
    const encode = tableWatchEncoder(eventsV1View, { includeObject: 'Metadata', now });
    const events = [
      encode('ADDED', event('a', '4')),
      encode('MODIFIED', event('a', '6')),
      encode('DELETED', event('a', '7')),
    ];
    expect(
      events.map((e) => [e.type, e.object.columnDefinitions === null, e.object.metadata.resourceVersion]),
    ).toEqual([
      ['ADDED', false, '4'],
      ['MODIFIED', true, '6'],
      ['DELETED', true, '7'],
    ]);
    expect(JSON.stringify(events[1])).toContain('"columnDefinitions":null,"rows":[{"cells":');
    // A fresh stream starts with headers again.
    expect(
      tableWatchEncoder(eventsV1View, { includeObject: 'None', now })('ADDED', event('a', '4')).object
        .columnDefinitions,
    ).toHaveLength(10);
  });
});

describe('a Table over HTTP', () => {
  it.each([
    [KUBECTL_GET, 'Table'],
    ['application/json', 'EventList'],
  ])('Accept %s gets a %s as application/json', async (accept, kind) => {
    const app = express();
    app.get('/apis/events.k8s.io/v1/events', (req, res) => {
      const url = new URL(req.originalUrl, 'http://localhost');
      const items = [event('a', '4')];
      const body = wantsTable(req.headers.accept)
        ? tableForList(
            eventsV1View,
            items,
            { resourceVersion: '5' },
            { includeObject: parseIncludeObject(url.searchParams.get('includeObject')), now },
          )
        : {
            kind: 'EventList',
            apiVersion: 'events.k8s.io/v1',
            metadata: { resourceVersion: '5' },
            items: items.map((i) => eventsV1View.encode(i)),
          };
      writeObject(req, res, url, 200, body);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/events.k8s.io/v1/events?limit=500`,
        { headers: { accept } },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const body = (await res.json()) as { kind: string; rows?: { cells: unknown[] }[] };
      expect(body.kind).toBe(kind);
      if (kind === 'Table') expect(body.rows?.[0]?.cells).toEqual(cells('a'));
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
