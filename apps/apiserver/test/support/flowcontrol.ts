/** Helpers of the priority and fairness tests: levels of their own, and requests that hold a seat. */
import { PassThrough } from 'node:stream';
import { request } from 'undici';
import { expect } from 'vitest';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

export const FC = '/apis/flowcontrol.apiserver.k8s.io';
export const FS_HEADER = 'x-kubernetes-pf-flowschema-uid';
export const PL_HEADER = 'x-kubernetes-pf-prioritylevel-uid';

export type Obj = {
  metadata: { name: string; uid: string; annotations?: Record<string, string> };
  spec: Record<string, unknown>;
};

export const as = (user: string) => ({ 'Impersonate-User': user });

/** A create as `user` whose body is sent only when release() is called: it holds its seat till then. */
export function heldCreate(server: TestApiServer, user: string, ns: string, name: string) {
  const body = new PassThrough();
  // undici sends the headers with the first chunk of a streamed body: start it, hold the rest.
  body.write('{"metadata":');
  const done = request(`${server.url}/api/v1/namespaces/${ns}/configmaps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...as(user) },
    body,
    dispatcher: server.dispatcher,
  }).then(async (r) => ({ status: r.statusCode, headers: r.headers, text: await r.body.text() }));
  return {
    done,
    release: () => body.end(`${JSON.stringify({ name })}}`),
  };
}

export async function waitFor(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The apiserver_flowcontrol_current_inqueue_requests total of one level. */
export async function inQueue(server: TestApiServer, level: string): Promise<number> {
  const text = (await server.request('GET', '/metrics')).text;
  let sum = 0;
  for (const line of text.split('\n')) {
    if (
      line.startsWith('apiserver_flowcontrol_current_inqueue_requests{') &&
      line.includes(`priority_level="${level}"`)
    )
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A level of one nominal seat (with a server limit up to 245) and the schema sending `users` to it, by user. */
export async function createLevel(
  server: TestApiServer,
  name: string,
  users: string[],
  limitResponse: Record<string, unknown>,
  // Borrowing nothing by default: the level keeps exactly its one nominal seat.
  limited: Record<string, unknown> = { borrowingLimitPercent: 0 },
): Promise<{ fs: Obj; pl: Obj }> {
  const pl = await server.request('POST', `${FC}/v1/prioritylevelconfigurations`, {
    body: {
      metadata: { name },
      spec: { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse, ...limited } },
    },
  });
  expect(pl.status).toBe(201);
  const fs = await server.request('POST', `${FC}/v1beta1/flowschemas`, {
    body: {
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta1',
      kind: 'FlowSchema',
      metadata: { name },
      spec: {
        priorityLevelConfiguration: { name },
        matchingPrecedence: 50,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: users.map((u) => ({ kind: 'User', user: { name: u } })),
            resourceRules: [
              { verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'], clusterScope: true },
            ],
          },
        ],
      },
    },
  });
  expect(fs.status).toBe(201);
  const created = { fs: fs.json as Obj, pl: pl.json as Obj };
  // The filter follows the store through the server's informers: wait until it classifies by the new schema.
  await waitFor('the new FlowSchema to classify', async () => {
    const r = await server.request('GET', '/api/v1/namespaces/default/configmaps', {
      headers: as(users[0] ?? ''),
    });
    return r.headers[FS_HEADER] === created.fs.metadata.uid;
  });
  return created;
}
