/**
 * API Priority and Fairness through a real server (--enable-priority-and-fairness, on by
 * default): the bootstrap configuration served at every version and listed by kubectl, the
 * X-Kubernetes-PF-* headers, a Reject level's 429, and fair queuing: a user flooding a level
 * cannot starve another user of it. Seats are held by requests whose bodies the test sends
 * later, so every assertion counts requests and orders, never timings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dealHand, hashFlow } from '@keel/flowcontrol';
import { TestApiServer, USER_TOKEN, type ApiResponse } from '@keel/testing';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectlOk } from './support/clients/kubectl.js';
import { unique } from './support/core.js';
import {
  FC,
  FS_HEADER,
  PL_HEADER,
  as,
  createLevel,
  heldCreate,
  inQueue,
  waitFor,
  type Obj,
} from './support/flowcontrol.js';

const TOO_MANY = 'Too many requests, please try again later.\n';

describe('API Priority and Fairness', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  beforeAll(async () => {
    // A server concurrency limit of 40: a level with 1 share of the bootstrap's 245 gets one
    // nominal seat, and every bootstrap level keeps at least one seat it does not lend.
    server = await TestApiServer.start({
      args: ['--max-requests-inflight=20', '--max-mutating-requests-inflight=20'],
    });
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves the mandatory and suggested configuration at v1 and v1beta1, shares converted', async () => {
    const levels = await server.request('GET', `${FC}/v1/prioritylevelconfigurations`);
    const names = (levels.json as { items: Obj[] }).items.map((o) => o.metadata.name).sort();
    expect(names).toEqual([
      'catch-all',
      'exempt',
      'global-default',
      'leader-election',
      'node-high',
      'system',
      'workload-high',
      'workload-low',
    ]);
    const v1 = (await server.request('GET', `${FC}/v1/prioritylevelconfigurations/workload-low`)).json as Obj;
    expect(v1.spec).toEqual({
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 100,
        limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
        lendablePercent: 90,
      },
    });
    expect(v1.metadata.annotations).toEqual({
      'apf.kubernetes.io/autoupdate-spec': 'true',
    });
    const beta = (await server.request('GET', `${FC}/v1beta1/prioritylevelconfigurations/workload-low`))
      .json as Obj;
    expect(beta.spec['limited']).toMatchObject({ assuredConcurrencyShares: 100 });
    const schemas = (await server.request('GET', `${FC}/v1beta3/flowschemas`)).json as { items: Obj[] };
    expect(schemas.items.map((o) => o.metadata.name)).toEqual(
      expect.arrayContaining([
        'exempt',
        'catch-all',
        'global-default',
        'probes',
        'system-nodes',
        'service-accounts',
      ]),
    );
  });

  it('discovery and OpenAPI list the group at every version, v1 preferred', async () => {
    const group = (await server.request('GET', FC)).json as {
      versions: { version: string }[];
      preferredVersion: { version: string };
    };
    expect(group.versions.map((v) => v.version)).toEqual(['v1', 'v1beta3', 'v1beta2', 'v1beta1']);
    expect(group.preferredVersion.version).toBe('v1');
    const v3 = (await server.request('GET', '/openapi/v3')).json as { paths: Record<string, unknown> };
    expect(Object.keys(v3.paths)).toEqual(
      expect.arrayContaining([
        'apis/flowcontrol.apiserver.k8s.io/v1',
        'apis/flowcontrol.apiserver.k8s.io/v1beta1',
      ]),
    );
  });

  it('kubectl lists flowschemas and prioritylevelconfigurations', async () => {
    const fs = await kubectlOk(cfg, ['get', 'flowschemas']);
    expect(fs).toMatch(/^NAME\s+PRIORITYLEVEL\s+MATCHINGPRECEDENCE\s+DISTINGUISHERMETHOD\s+AGE\s+MISSINGPL/);
    expect(fs).toMatch(/\nexempt\s+exempt\s+1\s+<none>\s+\S+\s+False\n/);
    expect(fs).toMatch(/\nglobal-default\s+global-default\s+9900\s+ByUser\s+\S+\s+False\n/);
    const pl = await kubectlOk(cfg, ['get', 'prioritylevelconfigurations']);
    expect(pl).toMatch(
      /^NAME\s+TYPE\s+NOMINALCONCURRENCYSHARES\s+QUEUES\s+HANDSIZE\s+QUEUELENGTHLIMIT\s+AGE/,
    );
    expect(pl).toMatch(/\ncatch-all\s+Limited\s+5\s+<none>\s+<none>\s+<none>\s+\S+\n/);
    expect(pl).toMatch(/\nexempt\s+Exempt\s+<none>\s+<none>\s+<none>\s+<none>\s+\S+\n/);
  });

  it('names the deciding schema and level in the response headers', async () => {
    const uid = async (kind: string, name: string) =>
      ((await server.request('GET', `${FC}/v1/${kind}/${name}`)).json as Obj).metadata.uid;
    const admin = await server.request('GET', '/api/v1/namespaces');
    expect(admin.headers[FS_HEADER]).toBe(await uid('flowschemas', 'exempt'));
    expect(admin.headers[PL_HEADER]).toBe(await uid('prioritylevelconfigurations', 'exempt'));
    const alice = await server.request('GET', '/api/v1/namespaces', { token: USER_TOKEN });
    expect(alice.headers[FS_HEADER]).toBe(await uid('flowschemas', 'global-default'));
    expect(alice.headers[PL_HEADER]).toBe(await uid('prioritylevelconfigurations', 'global-default'));
  });

  it('refuses validation failures with upstream messages', async () => {
    const r = await server.request('POST', `${FC}/v1/prioritylevelconfigurations`, {
      body: {
        metadata: { name: unique('bad') },
        spec: {
          type: 'Limited',
          limited: { limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 3 } } },
        },
      },
    });
    expect(r.status).toBe(422);
    expect((r.json as { message: string }).message).toContain(
      'spec.limited.limitResponse.queuing.handSize: Invalid value: 3: should not be greater than queues (2)',
    );
    const fs = await server.request('PUT', `${FC}/v1/flowschemas/exempt`, {
      body: {
        metadata: { name: 'exempt' },
        spec: { priorityLevelConfiguration: { name: 'global-default' } },
      },
    });
    expect(fs.status).toBe(422);
    expect((fs.json as { message: string }).message).toContain("spec of 'exempt' must equal the fixed value");
  });

  it("keeps each FlowSchema's Dangling condition through its status, as upstream words it", async () => {
    const name = unique('dangling');
    const [missing, other] = [`${name}-missing`, `${name}-other`];
    type Cond = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };
    type Fs = Obj & {
      metadata: { managedFields?: { manager: string; operation: string }[] };
      status?: { conditions?: Cond[] };
    };
    const dangling = async () => {
      const fs = (await server.request('GET', `${FC}/v1/flowschemas/${name}`)).json as Fs;
      return fs.status?.conditions?.find((c) => c.type === 'Dangling');
    };
    const until = (status: string, message: string) =>
      waitFor(`Dangling ${status}: ${message}`, async () => {
        const c = await dangling();
        return c?.status === status && c.message === message;
      });
    const created = await server.request('POST', `${FC}/v1/flowschemas`, {
      body: {
        metadata: { name },
        spec: { priorityLevelConfiguration: { name: missing }, matchingPrecedence: 5000 },
      },
    });
    expect(created.status).toBe(201);
    const notFound = (pl: string) =>
      `This FlowSchema references the PriorityLevelConfiguration object named "${pl}" but there is no such object`;
    await until('True', notFound(missing));
    expect(await dangling()).toMatchObject({ reason: 'NotFound' });
    expect((await dangling())?.lastTransitionTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const fs = (await server.request('GET', `${FC}/v1/flowschemas/${name}`)).json as Fs;
    expect(fs.metadata.managedFields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          manager: 'api-priority-and-fairness-config-consumer-v1',
          operation: 'Apply',
        }),
      ]),
    );
    expect(await kubectlOk(cfg, ['get', 'flowschema', name])).toMatch(
      new RegExp(`\\n${name}\\s+${missing}\\s+5000\\s+<none>\\s+\\S+\\s+True\\n`),
    );

    // Still dangling, but at another name: the message follows.
    const moved = await server.request('PATCH', `${FC}/v1/flowschemas/${name}`, {
      contentType: 'application/merge-patch+json',
      body: { spec: { priorityLevelConfiguration: { name: other } } },
    });
    expect(moved.status).toBe(200);
    await until('True', notFound(other));

    const pl = await server.request('POST', `${FC}/v1/prioritylevelconfigurations`, {
      body: {
        metadata: { name: other },
        spec: {
          type: 'Limited',
          limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } },
        },
      },
    });
    expect(pl.status).toBe(201);
    const found = `This FlowSchema references the PriorityLevelConfiguration object named "${other}" and it exists`;
    await until('False', found);
    expect(await dangling()).toMatchObject({ reason: 'Found' });
    // The consumer insists: a condition written by someone else through /status is put back.
    const current = (await server.request('GET', `${FC}/v1/flowschemas/${name}`)).json as Fs;
    const forged = await server.request('PUT', `${FC}/v1/flowschemas/${name}/status`, {
      body: {
        ...current,
        status: { conditions: [{ type: 'Dangling', status: 'True', reason: 'Forged', message: 'no' }] },
      },
    });
    expect(forged.status).toBe(200);
    await until('False', found);
    // upstream's controller writes no PriorityLevelConfiguration status.
    const level = (await server.request('GET', `${FC}/v1/prioritylevelconfigurations/${other}`)).json as {
      status?: unknown;
    };
    expect(level.status ?? {}).toEqual({});
    expect((await server.request('DELETE', `${FC}/v1/flowschemas/${name}`)).status).toBe(200);
    await server.request('DELETE', `${FC}/v1/prioritylevelconfigurations/${other}`);
  });

  it('a Reject level answers 429 with Retry-After while its seat is taken', async () => {
    const name = unique('reject');
    const user = `${name}-user`;
    const { fs, pl } = await createLevel(server, name, [user], { type: 'Reject' });
    const held = heldCreate(server, user, 'default', unique('held'));
    await waitFor('the held request to execute', async () => {
      const r = await server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: as(user) });
      return r.status === 429;
    });
    const refused = await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: as(user),
    });
    expect(refused.status).toBe(429);
    expect(refused.text).toBe(TOO_MANY);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers[FS_HEADER]).toBe(fs.metadata.uid);
    expect(refused.headers[PL_HEADER]).toBe(pl.metadata.uid);
    held.release();
    expect((await held.done).status).toBe(201);
    expect(
      (await server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: as(user) })).status,
    ).toBe(200);
    const metrics = (await server.request('GET', '/metrics')).text;
    expect(metrics).toMatch(
      new RegExp(
        `apiserver_flowcontrol_rejected_requests_total\\{priority_level="${name}",flow_schema="${name}",reason="concurrency-limit"\\} [1-9]`,
      ),
    );
  });

  it('a busy level borrows the seats idle levels lend, within its upper bound', async () => {
    const name = unique('borrow');
    const user = `${name}-user`;
    // One nominal seat, none lent, and no borrowing limit: up to the server's 40 more.
    await createLevel(
      server,
      name,
      [user],
      { type: 'Queue', queuing: { queues: 8, handSize: 2, queueLengthLimit: 10 } },
      {},
    );
    const metric = async (metric: string, labels: string) => {
      const text = (await server.request('GET', '/metrics')).text;
      const line = text.split('\n').find((l) => l.startsWith(`${metric}{${labels}}`));
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const level = `priority_level="${name}"`;
    const flow = `priority_level="${name}",flow_schema="${name}"`;
    expect(await metric('apiserver_flowcontrol_upper_limit_seats', level)).toBe(41);
    expect(await metric('apiserver_flowcontrol_nominal_limit_seats', level)).toBe(1);
    const held = [1, 2, 3, 4].map(() => heldCreate(server, user, 'default', unique('held')));
    try {
      // Idle levels' seats are dealt out in proportion to demand (at once for a new level, then
      // at each adjustment, every 10 s as upstream): more than its one nominal seat executes.
      for (let i = 0; ; i++) {
        const executing = (await metric('apiserver_flowcontrol_current_executing_requests', flow)) ?? 0;
        if (executing >= 2 && executing + (await inQueue(server, name)) === 4) break;
        if (i > 120) throw new Error('the level never borrowed a seat');
        await new Promise((r) => setTimeout(r, 250));
      }
      const executing = (await metric('apiserver_flowcontrol_current_executing_requests', flow)) ?? 0;
      const current = (await metric('apiserver_flowcontrol_current_limit_seats', level)) ?? 0;
      expect(current).toBeGreaterThanOrEqual(executing);
      expect(current).toBeLessThanOrEqual(41);
    } finally {
      for (const h of held) h.release();
    }
    expect((await Promise.all(held.map((h) => h.done))).map((r) => r.status)).toEqual([201, 201, 201, 201]);
  }, 60_000);

  it('one user flooding a level cannot starve another: queues fill, the quiet user is served in turn', async () => {
    const name = unique('fair');
    const noisy = `${name}-noisy`;
    // 8 queues, hands of 2: pick a quiet user whose hand shares no queue with the noisy user's.
    const hand = (u: string) => dealHand(hashFlow(name, u), 8, 2);
    let quiet = '';
    for (let i = 0; quiet === ''; i++) {
      const candidate = `${name}-quiet-${i}`;
      if (!hand(candidate).some((q) => hand(noisy).includes(q))) quiet = candidate;
    }
    await createLevel(server, name, [noisy, quiet], {
      type: 'Queue',
      queuing: { queues: 8, handSize: 2, queueLengthLimit: 5 },
    });
    const order: string[] = [];
    const track = (who: string, p: Promise<ApiResponse | { status: number }>) =>
      p.then((r) => {
        if (r.status !== 429) order.push(who);
        return r.status;
      });
    // The noisy user's first create holds the level's one seat until released.
    const held = heldCreate(server, noisy, 'default', unique('held'));
    await waitFor(
      'the held request to execute',
      async () => (await inQueue(server, name)) === 0 && order.length === 0 && (await probe()),
    );
    async function probe(): Promise<boolean> {
      const text = (await server.request('GET', '/metrics')).text;
      return new RegExp(
        `apiserver_flowcontrol_current_executing_requests\\{priority_level="${name}",flow_schema="${name}"\\} 1`,
      ).test(text);
    }
    const flood = Array.from({ length: 20 }, () =>
      track('noisy', server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: as(noisy) })),
    );
    // Its two queues of 5 fill; the other 10 are refused at once.
    await waitFor('the flood to fill its queues', async () => (await inQueue(server, name)) === 10);
    const quietOnes = Array.from({ length: 3 }, () =>
      track('quiet', server.request('GET', '/api/v1/namespaces/default/configmaps', { headers: as(quiet) })),
    );
    await waitFor('the quiet requests to queue', async () => (await inQueue(server, name)) === 13);
    held.release();
    const floodStatuses = await Promise.all(flood);
    const quietStatuses = await Promise.all(quietOnes);
    expect((await held.done).status).toBe(201);
    expect(floodStatuses.filter((s) => s === 429)).toHaveLength(10);
    expect(floodStatuses.filter((s) => s === 200)).toHaveLength(10);
    expect(quietStatuses).toEqual([200, 200, 200]);
    // Fair queuing serves the queues in turn: the quiet user's requests do not wait behind the
    // whole flood (first come, first served would put all ten noisy requests first).
    const lastQuiet = order.lastIndexOf('quiet');
    expect(order.slice(lastQuiet + 1).filter((w) => w === 'noisy').length).toBeGreaterThanOrEqual(5);
  });
});

describe('API Priority and Fairness with its group turned off', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        '--runtime-config=flowcontrol.apiserver.k8s.io/v1=false,flowcontrol.apiserver.k8s.io/v1beta3=false,flowcontrol.apiserver.k8s.io/v1beta2=false,flowcontrol.apiserver.k8s.io/v1beta1=false',
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves no flowcontrol group, yet still classifies by the stored configuration', async () => {
    const groups = (await server.request('GET', '/apis')).json as { groups: { name: string }[] };
    expect(groups.groups.map((g) => g.name)).not.toContain('flowcontrol.apiserver.k8s.io');
    expect((await server.request('GET', `${FC}/v1/flowschemas`)).status).toBe(404);
    const r = await server.request('GET', '/api/v1/namespaces', { token: USER_TOKEN });
    expect(r.status).toBe(200);
    expect(r.headers[FS_HEADER]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
