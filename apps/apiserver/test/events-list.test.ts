import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import {
  body,
  createEvents,
  EVENTS,
  evPath,
  failure,
  invalidOptions,
  items,
  meta,
  names,
  newEvent,
  startServer,
  STORES,
  uniqueNs,
  type Json,
} from './support/events.js';

const FORBIDDEN = 'FieldValueForbidden';

function listMeta(list: Json): { resourceVersion: string; continue?: string; remainingItemCount?: number } {
  return meta(list) as { resourceVersion: string; continue?: string; remainingItemCount?: number };
}

describe.each(STORES)('Event lists (%s store)', (store) => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await startServer(store);
  });
  afterAll(async () => {
    await server.stop();
  });

  async function list(path: string): Promise<Json> {
    const res = await server.request('GET', path);
    if (res.status !== 200) throw new Error(`list ${path}: ${res.status} ${res.text}`);
    return body(res);
  }

  it('an empty list has items: [] and the store revision as its resourceVersion', async () => {
    const ns = uniqueNs();
    const other = uniqueNs();
    const [ev] = await createEvents(server, other, [newEvent(other, 'elsewhere')]);
    const res = await server.request('GET', evPath(ns));
    expect(res.text).toContain('"items":[]');
    const empty = body(res);
    expect(empty).toEqual({
      kind: 'EventList',
      apiVersion: 'events.k8s.io/v1',
      metadata: { resourceVersion: expect.any(String) as unknown },
      items: [],
    });
    expect(BigInt(listMeta(empty).resourceVersion)).toBeGreaterThanOrEqual(
      BigInt(String(meta(ev!)['resourceVersion'])),
    );
  });

  it('pages with limit/continue neither repeat nor skip while events are created and deleted', async () => {
    const ns = uniqueNs();
    const all = Array.from({ length: 10 }, (_, i) => `ev-${String(i).padStart(2, '0')}`);
    await createEvents(
      server,
      ns,
      all.map((n) => newEvent(ns, n)),
    );
    const first = await list(evPath(ns, undefined, 'limit=3'));
    const rv = listMeta(first).resourceVersion;
    expect(names(first)).toEqual(all.slice(0, 3));
    expect(listMeta(first).remainingItemCount).toBe(7);
    // Changes after the first page: one new event before, one after the cursor, two deletions.
    await createEvents(server, ns, [newEvent(ns, 'ev-00a'), newEvent(ns, 'ev-99')]);
    expect((await server.request('DELETE', evPath(ns, 'ev-01'))).status).toBe(200);
    expect((await server.request('DELETE', evPath(ns, 'ev-07'))).status).toBe(200);

    const seen = [...names(first)];
    const remaining: (number | undefined)[] = [];
    let token = listMeta(first).continue;
    while (token) {
      const page = await list(evPath(ns, undefined, `limit=3&continue=${encodeURIComponent(token)}`));
      expect(listMeta(page).resourceVersion).toBe(rv);
      seen.push(...names(page));
      remaining.push(listMeta(page).remainingItemCount);
      token = listMeta(page).continue;
    }
    expect(seen).toEqual(all);
    expect(remaining).toEqual([4, 1, undefined]);
    const now = names(await list(evPath(ns)));
    expect(now).toEqual([
      'ev-00',
      'ev-00a',
      'ev-02',
      'ev-03',
      'ev-04',
      'ev-05',
      'ev-06',
      'ev-08',
      'ev-09',
      'ev-99',
    ]);
  });

  it('a page that ends the list has no continue token; limit=0 lists everything', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a'), newEvent(ns, 'b')]);
    const exact = await list(evPath(ns, undefined, 'limit=2'));
    expect(names(exact)).toEqual(['a', 'b']);
    expect(listMeta(exact)).not.toHaveProperty('continue');
    expect(listMeta(exact)).not.toHaveProperty('remainingItemCount');
    expect(names(await list(evPath(ns, undefined, 'limit=0')))).toEqual(['a', 'b']);
  });

  it('remainingItemCount is omitted when a selector filters the list', async () => {
    const ns = uniqueNs();
    await createEvents(
      server,
      ns,
      ['a', 'b', 'c', 'd'].map((n) => newEvent(ns, n, { metadata: { name: n, labels: { tier: 'x' } } })),
    );
    const page = await list(evPath(ns, undefined, 'limit=2&labelSelector=tier%3Dx'));
    expect(names(page)).toEqual(['a', 'b']);
    expect(listMeta(page).continue).toEqual(expect.any(String));
    expect(listMeta(page)).not.toHaveProperty('remainingItemCount');
  });

  it('pages across all namespaces keep namespace order and the first page resourceVersion', async () => {
    const [a, b] = [uniqueNs('pa'), uniqueNs('pb')];
    await createEvents(server, a, [newEvent(a, 'one'), newEvent(a, 'two')]);
    await createEvents(server, b, [newEvent(b, 'three')]);
    const seen: string[] = [];
    let token: string | undefined = '';
    let rv: string | undefined;
    do {
      const q: string = `limit=2${token ? `&continue=${encodeURIComponent(token)}` : ''}`;
      const page = await list(`${EVENTS}/events?${q}`);
      rv ??= listMeta(page).resourceVersion;
      expect(listMeta(page).resourceVersion).toBe(rv);
      seen.push(...items(page).map((i) => `${String(meta(i)['namespace'])}/${String(meta(i)['name'])}`));
      token = listMeta(page).continue;
    } while (token);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((k) => k.startsWith(`${a}/`) || k.startsWith(`${b}/`))).toEqual(
      [`${a}/one`, `${a}/two`, `${b}/three`].sort(),
    );
  });

  it('resourceVersionMatch=Exact reads the list as it was at that resourceVersion', async () => {
    const ns = uniqueNs();
    await createEvents(server, ns, [newEvent(ns, 'a'), newEvent(ns, 'b')]);
    const before = await list(evPath(ns));
    const rv = listMeta(before).resourceVersion;
    await createEvents(server, ns, [newEvent(ns, 'c')]);
    await server.request('DELETE', evPath(ns, 'a'));
    const exact = await list(evPath(ns, undefined, `resourceVersion=${rv}&resourceVersionMatch=Exact`));
    expect(names(exact)).toEqual(['a', 'b']);
    expect(listMeta(exact).resourceVersion).toBe(rv);
    expect(items(exact)).toEqual(items(before));
    // NotOlderThan and resourceVersion=0 give the current state.
    expect(
      names(await list(evPath(ns, undefined, `resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`))),
    ).toEqual(['b', 'c']);
    expect(names(await list(evPath(ns, undefined, 'resourceVersion=0')))).toEqual(['b', 'c']);
  });

  it('a resourceVersion the store has not reached is 504 Too large resource version', async () => {
    const ns = uniqueNs();
    const res = await server.request(
      'GET',
      evPath(ns, undefined, 'resourceVersion=999999999&resourceVersionMatch=NotOlderThan'),
    );
    expect(res.status).toBe(504);
    expect(body(res)).toEqual({
      ...failure(
        504,
        'Timeout',
        expect.stringMatching(
          /^Timeout: Too large resource version: 999999999, current: \d+$/,
        ) as unknown as string,
      ),
      details: {
        causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
        retryAfterSeconds: 1,
      },
    });
  });

  it.each([
    [
      'resourceVersionMatch=Exact',
      [
        [
          'resourceVersionMatch',
          FORBIDDEN,
          'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        ],
      ],
    ],
    [
      'resourceVersion=0&resourceVersionMatch=Exact',
      [
        [
          'resourceVersionMatch',
          FORBIDDEN,
          'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
        ],
      ],
    ],
    [
      'resourceVersion=5&resourceVersionMatch=Sometimes',
      [
        [
          'resourceVersionMatch',
          'FieldValueNotSupported',
          'Unsupported value: "Sometimes": supported values: "Exact", "NotOlderThan", ""',
        ],
      ],
    ],
    [
      'resourceVersion=5&resourceVersionMatch=NotOlderThan&continue=abc',
      [
        [
          'resourceVersionMatch',
          FORBIDDEN,
          'Forbidden: resourceVersionMatch is forbidden when continue is provided',
        ],
      ],
    ],
    [
      'sendInitialEvents=true',
      [['sendInitialEvents', FORBIDDEN, 'Forbidden: sendInitialEvents is forbidden for list']],
    ],
  ] as const)('%s is 422 ListOptions', async (query, causes) => {
    const res = await server.request('GET', evPath(uniqueNs(), undefined, query));
    expect(res.status).toBe(422);
    expect(res.json).toEqual(invalidOptions('ListOptions', causes));
  });

  it.each([
    [
      'continue=garbage',
      "invalid continue token: continue key is not valid: invalid character '\\u0081' looking for beginning of value",
    ],
    ['continue=a', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 0'],
    [
      `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString('base64url')}`,
      'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
    ],
    [
      `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":5,"start":"a"}').toString('base64url')}&resourceVersion=5`,
      'specifying resource version is not allowed when using continue',
    ],
    [
      'resourceVersion=abc',
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    ],
  ])('%s is 400', async (query, message) => {
    const res = await server.request('GET', evPath(uniqueNs(), undefined, query));
    expect(res.status).toBe(400);
    expect(res.json).toEqual(failure(400, 'BadRequest', message));
  });
});
