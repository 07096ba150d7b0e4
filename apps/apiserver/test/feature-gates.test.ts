import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { invalidOptions, uniqueNs, WatchStream, type Json, type WatchEvent } from './support/events.js';

const cms = (ns: string, query = '') => `/api/v1/namespaces/${ns}/configmaps${query ? `?${query}` : ''}`;

const INITIAL_EVENTS_END = { metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } } };
function isInitialEventsEnd(ev: WatchEvent): boolean {
  const annotations = (ev.object['metadata'] as { annotations?: Json } | undefined)?.annotations;
  return ev.type === 'BOOKMARK' && annotations?.['k8s.io/initial-events-end'] === 'true';
}

/** The resources of the legacy /api/v1 discovery document, by name. */
async function coreResources(server: TestApiServer): Promise<Map<unknown, Json>> {
  const list = (await server.request('GET', '/api/v1')).json as { resources: Json[] };
  return new Map(list.resources.map((r) => [r['name'], r]));
}

/** One server per gate setting, as each daemon reads --feature-gates once at start-up. */
function withServer(args: readonly string[]): () => TestApiServer {
  let server: TestApiServer | undefined;
  beforeAll(async () => {
    server = await TestApiServer.start({ args });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('server not started');
    return server;
  };
}

describe('keel-apiserver --feature-gates', () => {
  const open: WatchStream[] = [];
  afterEach(() => {
    for (const w of open.splice(0)) w.close();
  });
  async function watch(server: TestApiServer, path: string): Promise<WatchStream> {
    const w = await WatchStream.open(server, path);
    open.push(w);
    return w;
  }
  async function createConfigMap(server: TestApiServer, ns: string, name: string): Promise<void> {
    const r = await server.request('POST', cms(ns), {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } },
    });
    expect(r.status, r.text).toBe(201);
  }

  describe('with the defaults (fixed gates at their value and meaningless gates accepted)', () => {
    const server = withServer([
      '--feature-gates=APIServerIdentity=false,UnauthenticatedHTTP2DOSMitigation=false',
    ]);

    it('serves a sendInitialEvents watch: the state, then the initial-events-end bookmark', async () => {
      const ns = uniqueNs();
      await createConfigMap(server(), ns, 'a');
      const w = await watch(
        server(),
        cms(
          ns,
          'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true',
        ),
      );
      expect(w.status).toBe(200);
      const [added, end] = await w.take(2);
      expect(added).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
      expect(end).toMatchObject({ type: 'BOOKMARK', object: INITIAL_EVENTS_END });
    });

    it('a watch from "" is a watch list: it ends its initial events with the bookmark', async () => {
      const ns = uniqueNs();
      await createConfigMap(server(), ns, 'a');
      const w = await watch(server(), cms(ns, 'watch=true&allowWatchBookmarks=true&timeoutSeconds=1'));
      const events = await w.end();
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
      expect(events.filter(isInitialEventsEnd)).toHaveLength(1);
    });

    it('discovery carries each resource storageVersionHash', async () => {
      const byName = await coreResources(server());
      expect(byName.get('pods')?.['storageVersionHash']).toBe('xPOwRZ+Yhw8=');
      expect(byName.get('configmaps')?.['storageVersionHash']).toBe('qFsyl6wFWjQ=');
    });
  });

  describe('--feature-gates=WatchList=false', () => {
    const server = withServer(['--feature-gates=WatchList=false']);

    it('refuses sendInitialEvents on a watch with 422', async () => {
      const r = await server().request(
        'GET',
        cms(uniqueNs(), 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan'),
      );
      expect(r.status).toBe(422);
      expect(r.json).toEqual(
        invalidOptions('ListOptions', [
          [
            'sendInitialEvents',
            'FieldValueForbidden',
            'Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
          ],
        ]),
      );
    });

    it('a watch from "" streams the state without the initial-events-end bookmark', async () => {
      const ns = uniqueNs();
      await createConfigMap(server(), ns, 'a');
      const w = await watch(server(), cms(ns, 'watch=true&allowWatchBookmarks=true&timeoutSeconds=1'));
      expect(w.status).toBe(200);
      const events = await w.end();
      expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'a' } } });
      expect(events.filter(isInitialEventsEnd)).toEqual([]);
    });

    it('leaves discovery alone', async () => {
      expect((await coreResources(server())).get('pods')?.['storageVersionHash']).toBe('xPOwRZ+Yhw8=');
    });
  });

  describe('--feature-gates=StorageVersionHash=false', () => {
    const server = withServer(['--feature-gates=StorageVersionHash=false']);

    it('omits storageVersionHash from every resource of /api/v1 and the groups', async () => {
      const byName = await coreResources(server());
      expect(byName.get('pods')).toEqual({
        name: 'pods',
        singularName: 'pod',
        namespaced: true,
        kind: 'Pod',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['po'],
        categories: ['all'],
      });
      for (const r of byName.values()) expect(r, String(r['name'])).not.toHaveProperty('storageVersionHash');
      const rbac = (await server().request('GET', '/apis/rbac.authorization.k8s.io/v1')).json as {
        resources: Json[];
      };
      expect(rbac.resources.length).toBeGreaterThan(0);
      for (const r of rbac.resources) expect(r, String(r['name'])).not.toHaveProperty('storageVersionHash');
    });
  });

  it.each([
    [
      '--feature-gates=AllowParsingUserUIDFromCertAuth=true',
      "cannot set feature gate AllowParsingUserUIDFromCertAuth to true: Keel does not read a user UID from the client certificate's OID 1.3.6.1.4.1.57683.2",
    ],
    [
      '--feature-gates=RemoteRequestHeaderUID=true',
      'cannot set feature gate RemoteRequestHeaderUID to true: Keel reads no user UID from front-proxy request headers and has no --requestheader-uid-headers',
    ],
  ])('%s stops start-up with one line and exit 1', async (flag, message) => {
    const r = await runNode(apiServerEntry, [flag]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('Error: '))).toEqual([`Error: ${message}`]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
