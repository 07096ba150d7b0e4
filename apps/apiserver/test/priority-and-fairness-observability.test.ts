/**
 * What priority and fairness shows of itself through a real server: the apiserver_flowcontrol_*
 * metrics and apiserver_current_inflight/inqueue_requests (which APF feeds in place of the
 * in-flight limits) scraped from /metrics, and upstream's /debug/api_priority_and_fairness dumps,
 * while a level's one seat is held by a request whose body the test sends later. Every
 * assertion counts requests, never timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { ADMIN_TOKEN, TestApiServer, USER_TOKEN, type ApiResponse } from '@keel/testing';
import { unique } from './support/core.js';
import { RBAC, clusterRole, clusterRoleBinding, user as rbacUser } from './support/rbac.js';
import { as, createLevel, heldCreate, inQueue, waitFor } from './support/flowcontrol.js';

const DEBUG = '/debug/api_priority_and_fairness';
const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';

/** One sample of /metrics text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const have = inside.split(',');
    if (want.every((w) => have.includes(w)) && have.length === want.length)
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

/** A dump's rows as cells, after checking Go's tabwriter alignment: every cell starts where its header does. */
function table(text: string): string[][] {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const starts = (line: string) => {
    const at = [0];
    for (let i = 0; i < line.length; i++) {
      if (line[i] !== ',') continue;
      let j = i + 1;
      while (line[j] === ' ') j++;
      at.push(j);
    }
    return at;
  };
  const header = starts(lines[0] ?? '');
  for (const line of lines) expect(starts(line)).toEqual(header);
  return lines.map((l) => l.split(',').map((c) => c.trim()));
}

describe('API Priority and Fairness metrics and debug dumps', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    // A server concurrency limit of 40: a level with 1 share of the bootstrap's 245 gets one
    // nominal seat, and every bootstrap level keeps at least one seat it does not lend.
    server = await TestApiServer.start({
      args: [
        '--max-requests-inflight=20',
        '--max-mutating-requests-inflight=20',
        '--authorization-mode=RBAC',
        '--store-count-metric-poll-period=200ms',
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('counts executing, waiting, dispatched and queue-full requests, and dumps levels, queues and requests', async () => {
    const name = unique('observed');
    const user = `${name}-user`;
    // RBAC runs (for the dumps' authorization): the user may do anything, so only APF limits it.
    const binding = await server.request('POST', `${RBAC}/clusterrolebindings`, {
      body: clusterRoleBinding(name, 'cluster-admin', [rbacUser(user)]),
    });
    expect(binding.status).toBe(201);
    await createLevel(server, name, [user], {
      type: 'Queue',
      queuing: { queues: 1, handSize: 1, queueLengthLimit: 2 },
    });
    const labels = { priority_level: name, flow_schema: name };
    const before = (await server.request('GET', '/metrics')).text;
    expect(sample(before, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: name })).toBe(1);
    expect(before).not.toContain('apiserver_flowcontrol_request_concurrency_limit');
    // Bounds as upstream derives them: this level neither lends nor borrows.
    const seats = (metric: string, level: string) =>
      sample(before, `apiserver_flowcontrol_${metric}_limit_seats`, { priority_level: level });
    expect(['lower', 'upper', 'current'].map((m) => seats(m, name))).toEqual([1, 1, 1]);
    // workload-low: ceil(40 * 100 / 246) = 17 nominal seats, round(17 * 90%) = 15 lendable, and
    // no borrowing limit: up to the server's 40 more.
    expect(['nominal', 'lower', 'upper'].map((m) => seats(m, 'workload-low'))).toEqual([17, 2, 57]);
    expect(seats('current', 'workload-low')).toBeGreaterThanOrEqual(2);
    const dispatchedBefore = sample(before, 'apiserver_flowcontrol_dispatched_requests_total', labels) ?? 0;
    const queueLength = (text: string, part: 'count' | 'sum') =>
      sample(text, `apiserver_flowcontrol_request_queue_length_after_enqueue_${part}`, labels) ?? 0;
    const waitedBefore =
      sample(before, 'apiserver_flowcontrol_request_wait_duration_seconds_count', {
        ...labels,
        execute: 'true',
      }) ?? 0;

    const held = heldCreate(server, user, 'default', unique('held'));
    await waitFor('the held create to execute', async () => {
      const text = (await server.request('GET', '/metrics')).text;
      return sample(text, 'apiserver_flowcontrol_current_executing_requests', labels) === 1;
    });
    const queued = [1, 2].map(() => server.request('GET', CONFIGMAPS, { headers: as(user) }));
    await waitFor('two lists to queue', async () => (await inQueue(server, name)) === 2);
    const full = await server.request('GET', CONFIGMAPS, { headers: as(user) });
    expect(full.status).toBe(429);

    const during = (await server.request('GET', '/metrics')).text;
    // APF, not the in-flight limits, runs: its executing and waiting requests are what these count.
    expect(sample(during, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(1);
    expect(sample(during, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' })).toBe(2);
    expect(sample(during, 'apiserver_current_inqueue_requests', { request_kind: 'mutating' })).toBe(0);
    expect(sample(during, 'apiserver_flowcontrol_current_inqueue_requests', labels)).toBe(2);
    // Each waiting list and the held create take one seat here.
    expect(sample(during, 'apiserver_flowcontrol_current_inqueue_seats', labels)).toBe(2);
    expect(sample(during, 'apiserver_flowcontrol_current_executing_seats', labels)).toBe(1);
    // The queued lists found the level's one seat taken at least once each.
    expect(
      sample(during, 'apiserver_flowcontrol_request_dispatch_no_accommodation_total', labels),
    ).toBeGreaterThanOrEqual(2);
    // Summaries of the last borrowing period, one per level.
    for (const m of ['high_watermark', 'average', 'stdev', 'smoothed'])
      expect(
        sample(during, `apiserver_flowcontrol_demand_seats_${m}`, { priority_level: 'exempt' }),
      ).toBeGreaterThanOrEqual(0);
    expect(
      sample(during, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason: 'queue-full' }),
    ).toBe(1);
    // Each queued request saw its queue with itself in it: the held create 1 (dispatched at once,
    // as upstream enqueues and dispatches), the lists 1 and 2; the rejected one is not counted.
    expect(queueLength(during, 'count') - queueLength(before, 'count')).toBe(3);
    expect(queueLength(during, 'sum') - queueLength(before, 'sum')).toBe(4);
    expect(
      sample(during, 'apiserver_flowcontrol_request_queue_length_after_enqueue_bucket', {
        ...labels,
        le: '0',
      }),
    ).toBe(0);

    const levels = table((await server.request('GET', `${DEBUG}/dump_priority_levels`)).text);
    expect(levels[0]).toEqual([
      'PriorityLevelName',
      'ActiveQueues',
      'IsIdle',
      'IsQuiescing',
      'WaitingRequests',
      'ExecutingRequests',
      'DispatchedRequests',
      'RejectedRequests',
      'TimedoutRequests',
      'CancelledRequests',
    ]);
    const names = levels.slice(1).map((r) => r[0] ?? '');
    expect(names).toEqual([...names].sort());
    const row = levels.find((r) => r[0] === name);
    // Dispatched counts the create-level probes too; the rest is exactly this test's doing.
    expect(row?.slice(1, 6)).toEqual(['1', 'false', 'false', '2', '1']);
    expect(row?.slice(7)).toEqual(['1', '0', '0']);
    // The exempt level never queues, yet counts what it executes (this dump's own request too).
    const exempt = levels.find((r) => r[0] === 'exempt');
    expect(exempt?.slice(1, 6)).toEqual(['0', 'false', 'false', '0', '1']);
    expect(Number(exempt?.[6])).toBeGreaterThan(0);

    const queues = table((await server.request('GET', `${DEBUG}/dump_queues`)).text);
    expect(queues[0]).toEqual([
      'PriorityLevelName',
      'Index',
      'PendingRequests',
      'ExecutingRequests',
      'SeatsInUse',
      'NextDispatchR',
      'InitialSeatsSum',
      'MaxSeatsSum',
      'TotalWorkSum',
    ]);
    const mine = queues.filter((r) => r[0] === name);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.slice(1, 5)).toEqual(['0', '2', '1', '1']);
    expect(mine[0]?.[5]).toMatch(/^\d+\.\d{8}ss$/);
    expect(mine[0]?.slice(6)).toEqual(['2', '2', '2.00000000ss']);
    // catch-all rejects rather than queues: it has no queues to list.
    expect(queues.filter((r) => r[0] === 'catch-all')).toEqual([]);

    const requests = table((await server.request('GET', `${DEBUG}/dump_requests`)).text);
    expect(requests[0]).toHaveLength(9);
    const waiting = requests.filter((r) => r[0] === name);
    expect(waiting.map((r) => r.slice(1, 5))).toEqual([
      // One queue: upstream computes no flow distinguisher, so none is shown.
      [name, '0', '0', ''],
      [name, '0', '1', ''],
    ]);
    expect(waiting[0]?.[5]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(waiting[0]?.slice(6)).toEqual(['1', '0', '0s']);
    const detailed = table(
      (await server.request('GET', `${DEBUG}/dump_requests?includeRequestDetails=1`)).text,
    );
    expect(detailed[0]?.slice(9)).toEqual([
      'UserName',
      'Verb',
      'APIPath',
      'Namespace',
      'Name',
      'APIVersion',
      'Resource',
      'SubResource',
    ]);
    expect(detailed.find((r) => r[0] === name)?.slice(9)).toEqual([
      user,
      'list',
      CONFIGMAPS,
      'default',
      '',
      'v1',
      'configmaps',
      '',
    ]);

    held.release();
    expect((await held.done).status).toBe(201);
    expect((await Promise.all(queued)).map((r: ApiResponse) => r.status)).toEqual([200, 200]);
    const after = (await server.request('GET', '/metrics')).text;
    expect(sample(after, 'apiserver_current_inflight_requests', { request_kind: 'mutating' })).toBe(0);
    expect(sample(after, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' })).toBe(0);
    expect(sample(after, 'apiserver_flowcontrol_current_executing_requests', labels)).toBe(0);
    expect(sample(after, 'apiserver_flowcontrol_current_inqueue_requests', labels)).toBe(0);
    expect(sample(after, 'apiserver_flowcontrol_current_executing_seats', labels)).toBe(0);
    expect(sample(after, 'apiserver_flowcontrol_current_inqueue_seats', labels)).toBe(0);
    expect(sample(after, 'apiserver_flowcontrol_dispatched_requests_total', labels)).toBe(
      dispatchedBefore + 3,
    );
    expect(
      sample(after, 'apiserver_flowcontrol_request_wait_duration_seconds_count', {
        ...labels,
        execute: 'true',
      }),
    ).toBe(waitedBefore + 3);
    expect(
      sample(after, 'apiserver_flowcontrol_request_wait_duration_seconds_count', {
        ...labels,
        execute: 'false',
      }),
    ).toBe(1);
    const idle = table((await server.request('GET', `${DEBUG}/dump_priority_levels`)).text).find(
      (r) => r[0] === name,
    );
    expect(idle?.slice(1, 6)).toEqual(['0', 'true', 'false', '0', '0']);
  });

  it("a list costs one seat per hundred stored objects, up to its level's maximum", async () => {
    const name = unique('wide');
    const user = `${name}-user`;
    const ns = unique('many');
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);
    for (let i = 0; i < 150; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
            body: { metadata: { name: `cm-${i + k}` } },
          }),
        ),
      );
    const binding = await server.request('POST', `${RBAC}/clusterrolebindings`, {
      body: clusterRoleBinding(name, 'cluster-admin', [rbacUser(user)]),
    });
    expect(binding.status).toBe(201);
    // 100 shares of a server limit of 40: 12 nominal seats, so up to ceil(12 * 15%) = 2 per request.
    await createLevel(
      server,
      name,
      [user],
      { type: 'Queue', queuing: { queues: 2, handSize: 1, queueLengthLimit: 5 } },
      { nominalConcurrencyShares: 100, borrowingLimitPercent: 0 },
    );
    await waitFor('the configmap count', async () => {
      const text = (await server.request('GET', '/metrics')).text;
      return (sample(text, 'apiserver_storage_objects', { resource: 'configmaps' }) ?? 0) >= 150;
    });
    const seats = async () => {
      const text = (await server.request('GET', '/metrics')).text;
      const labels = { priority_level: name, flow_schema: name };
      return [1, 2].map((le) =>
        sample(text, 'apiserver_flowcontrol_work_estimated_seats_bucket', { ...labels, le: String(le) }),
      );
    };
    const [ones, twos] = await seats();
    // A list goes through every stored configmap (served as from the watch cache): 2 seats.
    expect((await server.request('GET', '/api/v1/configmaps', { headers: as(user) })).status).toBe(200);
    // A get, or a list continuing from storage with a small page (2 * 10 objects), takes one.
    expect(
      (await server.request('GET', `/api/v1/namespaces/${ns}/configmaps/cm-1`, { headers: as(user) })).status,
    ).toBe(200);
    expect(await seats()).toEqual([(ones ?? 0) + 1, (twos ?? 0) + 2]);
  });

  it('the dumps need authorization like any non-resource path; other debug paths are not found', async () => {
    const denied = await server.request('GET', `${DEBUG}/dump_queues`, { token: USER_TOKEN });
    expect(denied.status).toBe(403);
    expect((denied.json as { message: string }).message).toBe(
      `forbidden: User "alice" cannot get path "${DEBUG}/dump_queues"`,
    );
    expect((await server.request('GET', `${DEBUG}/dump_everything`)).status).toBe(404);
    const ok = await server.request('GET', `${DEBUG}/dump_priority_levels`);
    expect(ok.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('as upstream, no bootstrap role but cluster-admin grants the dumps: system:monitoring reads /metrics, not them', async () => {
    const name = unique('dump-reader');
    const monitoring = { 'Impersonate-User': `${name}-monitor`, 'Impersonate-Group': 'system:monitoring' };
    expect((await server.request('GET', '/metrics', { headers: monitoring })).status).toBe(200);
    const denied = await server.request('GET', `${DEBUG}/dump_requests`, { headers: monitoring });
    expect(denied.status).toBe(403);
    expect((denied.json as { message: string }).message).toBe(
      `forbidden: User "${name}-monitor" cannot get path "${DEBUG}/dump_requests"`,
    );
    // What an operator grants instead: get on the dumps' non-resource URLs.
    const reader = `${name}-reader`;
    expect(
      (
        await server.request('POST', `${RBAC}/clusterroles`, {
          body: clusterRole(name, [{ verbs: ['get'], nonResourceURLs: [`${DEBUG}/*`] }]),
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await server.request('POST', `${RBAC}/clusterrolebindings`, {
          body: clusterRoleBinding(name, name, [rbacUser(reader)]),
        })
      ).status,
    ).toBe(201);
    await waitFor('the binding to take effect', async () => {
      const r = await server.request('GET', `${DEBUG}/dump_requests`, { headers: as(reader) });
      return r.status === 200;
    });
    expect(
      (await server.request('GET', `${DEBUG}/dump_priority_levels`, { headers: as(reader) })).status,
    ).toBe(200);
    expect(
      (await server.request('GET', `${DEBUG}/dump_queues`, { headers: as(`${name}-other`) })).status,
    ).toBe(403);
  });
});

describe('API Priority and Fairness: requests that stop waiting', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    // A request waits at most a quarter of --request-timeout: half a second here.
    server = await TestApiServer.start({
      args: ['--max-requests-inflight=20', '--max-mutating-requests-inflight=20', '--request-timeout=2s'],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a client that goes away leaves its queue (cancelled); one that waits too long gets 429 (time-out)', async () => {
    const name = unique('leaves');
    const user = `${name}-user`;
    await createLevel(server, name, [user], {
      type: 'Queue',
      queuing: { queues: 1, handSize: 1, queueLengthLimit: 5 },
    });
    const labels = { priority_level: name, flow_schema: name };
    const held = heldCreate(server, user, 'default', unique('held'));
    await waitFor('the held create to execute', async () => {
      const text = (await server.request('GET', '/metrics')).text;
      return sample(text, 'apiserver_flowcontrol_current_executing_requests', labels) === 1;
    });
    const abort = new AbortController();
    const gone = request(`${server.url}${CONFIGMAPS}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...as(user) },
      dispatcher: server.dispatcher,
      signal: abort.signal,
    }).catch((e: unknown) => e);
    await waitFor('the list to queue', async () => (await inQueue(server, name)) === 1);
    abort.abort();
    await gone;
    await waitFor('the list to leave its queue', async () => (await inQueue(server, name)) === 0);
    const late = await server.request('GET', CONFIGMAPS, { headers: as(user) });
    expect(late.status).toBe(429);
    const text = (await server.request('GET', '/metrics')).text;
    const rejected = (reason: string) =>
      sample(text, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason });
    expect([rejected('cancelled'), rejected('time-out')]).toEqual([1, 1]);
    expect(sample(text, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' })).toBe(0);
    expect(sample(text, 'apiserver_flowcontrol_current_inqueue_seats', labels)).toBe(0);
    const row = table((await server.request('GET', `${DEBUG}/dump_priority_levels`)).text).find(
      (r) => r[0] === name,
    );
    // Rejected, timed-out and cancelled requests.
    expect(row?.slice(7)).toEqual(['0', '1', '1']);
    held.release();
    expect((await held.done).status).toBe(201);
  });
});

describe('API Priority and Fairness turned off', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({ args: ['--enable-priority-and-fairness=false'] });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves no dumps, and the in-flight limits feed apiserver_current_inflight_requests', async () => {
    expect((await server.request('GET', `${DEBUG}/dump_priority_levels`)).status).toBe(404);
    const text = (await server.request('GET', '/metrics')).text;
    // The scrape itself holds a read-only slot.
    expect(sample(text, 'apiserver_current_inflight_requests', { request_kind: 'readOnly' })).toBe(1);
    expect(sample(text, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' })).toBe(0);
    expect(text).not.toContain('apiserver_flowcontrol_nominal_limit_seats{');
  });
});
