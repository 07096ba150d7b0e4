/**
 * The real kubectl against the built keel-apiserver, on both stores, with nothing changed but the
 * kubeconfig: discovery, create from a manifest (default validation), every output format, lists
 * across namespaces, selectors, chunked lists, watch, the probes through get --raw, the errors as
 * kubectl prints them, and a bad token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { TestApiServer } from '@keel/testing';
import { startServer, STORES, uniqueNs, type Json } from './support/events.js';
import { clientConfig, writeManifest, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk, KubectlStream } from './support/clients/kubectl.js';
import { coreEventManifest, eventManifest } from './support/clients/manifests.js';

const EV = 'events.events.k8s.io';
/** How kubectl names an object of it in its output. */
const OBJ = 'event.events.k8s.io';

/** A printed table: one array of cells per line (columns are separated by 2+ spaces). */
function table(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
}

describe.each(STORES)('kubectl against Keel (%s store)', (store) => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const k = (...args: string[]) => kubectl(cfg, args);
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  const create = async (ns: string, name: string, labels: Record<string, string> = {}, over: Json = {}) =>
    ok('create', '-f', writeManifest(cfg, `${ns}-${name}.yaml`, eventManifest(ns, name, labels, over)));

  beforeAll(async () => {
    server = await startServer(store);
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('discovers both Event APIs: api-versions, api-resources and explain', async () => {
    expect((await ok('api-versions')).split('\n')).toEqual(
      expect.arrayContaining(['v1', 'events.k8s.io/v1']),
    );
    const resources = await ok('api-resources');
    // kubectl before 1.21 prints the group, later ones the group version.
    expect(resources).toMatch(/^events\s+ev\s+v1\s+true\s+Event$/m);
    expect(resources).toMatch(/^events\s+ev\s+events\.k8s\.io(\/v1)?\s+true\s+Event$/m);
    const explained = await ok('explain', 'events.note', '--api-version=events.k8s.io/v1');
    expect(explained).toMatch(/KIND:\s+Event/);
    expect(explained).toMatch(/FIELD:\s+note\s+<string>/);
  });

  it('creates from manifests with default validation, and refuses an unknown field', async () => {
    const ns = uniqueNs();
    expect(await create(ns, 'made')).toBe(`${OBJ}/made created\n`);
    const core = writeManifest(cfg, `${ns}-core.yaml`, coreEventManifest(ns, 'legacy'));
    expect(await ok('create', '-f', core)).toBe('event/legacy created\n');
    const bad = writeManifest(cfg, `${ns}-bad.yaml`, eventManifest(ns, 'bad', {}, { bogus: 1 }));
    const r = await k('create', '-f', bad);
    expect(r.code).toBe(1);
    // Validated on the server (fieldValidation=Strict) or, by kubectl before OpenAPI v3, against /openapi/v2.
    expect(r.stderr).toMatch(/unknown field "bogus"/);
    expect((await k('get', EV, 'bad', '-n', ns)).code).toBe(1);
  });

  describe('get in every output format', () => {
    const ns = uniqueNs('fmt');
    beforeAll(async () => {
      await create(ns, 'shown', { app: 'fmt' });
    });

    it.each<[string, string[], (out: string) => void]>([
      [
        'table',
        [],
        (out) =>
          expect(table(out)).toEqual([
            ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
            [expect.any(String) as unknown as string, 'Normal', 'Started', 'pod/pod-1', 'pod started'],
          ]),
      ],
      [
        'wide',
        ['-o', 'wide'],
        (out) => {
          const [head, row] = table(out);
          expect(head).toEqual([
            'LAST SEEN',
            'TYPE',
            'REASON',
            'OBJECT',
            'SUBOBJECT',
            'SOURCE',
            'MESSAGE',
            'FIRST SEEN',
            'COUNT',
            'NAME',
          ]);
          expect(row?.slice(-1)).toEqual(['shown']);
        },
      ],
      ['name', ['-o', 'name'], (out) => expect(out).toBe(`${OBJ}/shown\n`)],
      [
        'json',
        ['-o', 'json'],
        (out) =>
          expect(JSON.parse(out)).toMatchObject({
            kind: 'Event',
            apiVersion: 'events.k8s.io/v1',
            metadata: { name: 'shown', namespace: ns, labels: { app: 'fmt' } },
            note: 'pod started',
          }),
      ],
      [
        'yaml',
        ['-o', 'yaml'],
        (out) =>
          expect(parseYaml(out)).toMatchObject({
            kind: 'Event',
            metadata: { name: 'shown' },
            eventTime: '2024-05-01T10:00:00.123456Z',
          }),
      ],
      [
        'jsonpath',
        ['-o', 'jsonpath={.note}/{.regarding.name}'],
        (out) => expect(out).toBe('pod started/pod-1'),
      ],
      [
        'custom-columns',
        ['-o', 'custom-columns=NAME:.metadata.name,REASON:.reason'],
        (out) =>
          expect(table(out)).toEqual([
            ['NAME', 'REASON'],
            ['shown', 'Started'],
          ]),
      ],
      [
        'go-template',
        ['-o', 'go-template={{.reportingController}}'],
        (out) => expect(out).toBe('keel.io/scheduler'),
      ],
      ['show-labels', ['--show-labels'], (out) => expect(table(out)[1]?.slice(-1)).toEqual(['app=fmt'])],
    ])('%s', async (_name, args, check) => {
      check(await ok('get', EV, 'shown', '-n', ns, ...args));
    });

    it('the core v1 view of the same event (short name ev)', async () => {
      expect(table(await ok('get', 'ev', '-n', ns))).toEqual([
        ['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
        [expect.any(String) as unknown as string, 'Normal', 'Started', 'pod/pod-1', 'pod started'],
      ]);
      expect(JSON.parse(await ok('get', 'ev', 'shown', '-n', ns, '-o', 'json'))).toMatchObject({
        apiVersion: 'v1',
        involvedObject: { kind: 'Pod', name: 'pod-1' },
        message: 'pod started',
      });
    });
  });

  it('lists across namespaces with -A, and selects by label and by field', async () => {
    const [a, b] = [uniqueNs('all'), uniqueNs('all')];
    const suite = uniqueNs('suite');
    await create(a, 'one', { suite, tier: 'front' });
    await create(b, 'two', { suite, tier: 'back' }, { reason: 'Other' });
    const all = table(await ok('get', EV, '-A', '-l', `suite=${suite}`, '--sort-by=.metadata.name'));
    expect(all.map((r) => [r[0], r[3]])).toEqual([
      ['NAMESPACE', 'REASON'],
      [a, 'Started'],
      [b, 'Other'],
    ]);
    const names = (...sel: string[]) => ok('get', EV, '-A', '-o', 'name', '-l', `suite=${suite}`, ...sel);
    expect(await names('-l', 'tier=back')).toBe(`${OBJ}/two\n`);
    expect(await names('--field-selector', 'reason=Started')).toBe(`${OBJ}/one\n`);
    expect(await names('--field-selector', `metadata.namespace=${b},regarding.name=pod-1`)).toBe(
      `${OBJ}/two\n`,
    );
    const r = await k('get', EV, '-A', '--field-selector', 'involvedObject.name=pod-1');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error from server (BadRequest)');
    expect(r.stderr).toContain('field label not supported: involvedObject.name');
  });

  it('follows continue tokens with --chunk-size', async () => {
    const ns = uniqueNs('chunk');
    for (const n of ['c1', 'c2', 'c3']) await create(ns, n);
    const r = await k('get', EV, '-n', ns, '-o', 'name', '--chunk-size=1', '-v=6');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(['c1', 'c2', 'c3'].map((n) => `${OBJ}/${n}\n`).join(''));
    expect(r.stderr.match(/limit=1/g)?.length).toBeGreaterThanOrEqual(3);
    expect(r.stderr).toMatch(/[?&]continue=/);
  });

  it('get -w prints ADDED, MODIFIED and DELETED as server-side Table rows', async () => {
    const ns = uniqueNs('watch');
    await create(ns, 'w1');
    const w = new KubectlStream(cfg, ['get', EV, '-n', ns, '-w', '--output-watch-events']);
    const plain = new KubectlStream(cfg, ['get', 'events', '-n', ns, '-w']);
    try {
      await w.waitFor((out) => /^ADDED\s/m.test(out));
      await plain.waitFor((out) => out.includes('pod started'));
      await ok('label', EV, 'w1', '-n', ns, 'seen=yes');
      await w.waitFor((out) => /^MODIFIED\s/m.test(out));
      await ok('delete', EV, 'w1', '-n', ns);
      await w.waitFor((out) => /^DELETED\s/m.test(out));
      await plain.waitFor((out) => table(out).length >= 4);
    } finally {
      await w.stop();
      await plain.stop();
    }
    const rows = table(w.stdout);
    expect(rows[0]).toEqual(['EVENT', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(rows.slice(1).map((r) => [r[0], ...r.slice(2)])).toEqual(
      ['ADDED', 'MODIFIED', 'DELETED'].map((t) => [t, 'Normal', 'Started', 'pod/pod-1', 'pod started']),
    );
    // Without Tables on the watch, kubectl would fall back to NAME and AGE.
    expect(
      table(plain.stdout)
        .slice(1)
        .every((r) => r.includes('pod/pod-1')),
    ).toBe(true);
  });

  it('get --raw answers on every probe path', async () => {
    for (const root of ['healthz', 'livez', 'readyz']) {
      expect(await ok('get', '--raw', `/${root}`)).toBe('ok');
      const verbose = await ok('get', '--raw', `/${root}?verbose`);
      expect(verbose.trim().split('\n').pop()).toBe(`${root} check passed`);
      const checks = [...verbose.matchAll(/^\[\+\](\S+) ok$/gm)].map((m) => m[1] ?? '');
      expect(checks).toEqual(expect.arrayContaining(['ping', 'log']));
      const answers = await Promise.all(checks.map((c) => ok('get', '--raw', `/${root}/${c}`)));
      expect(answers).toEqual(checks.map(() => 'ok'));
    }
    expect(await ok('get', '--raw', '/readyz/shutdown')).toBe('ok');
    const missing = await k('get', '--raw', '/livez/nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NotFound');
  });

  it('reports NotFound, AlreadyExists and Invalid as the real server makes kubectl print them', async () => {
    const ns = uniqueNs('err');
    const file = writeManifest(cfg, `${ns}-dup.yaml`, eventManifest(ns, 'dup'));
    await ok('create', '-f', file);
    // In the default namespace: elsewhere kubectl follows a NotFound with a GET of the namespace
    // and prints that answer instead.
    const nope = uniqueNs('nope');
    const cases: [string[], string][] = [
      [['get', EV, nope, '-n', 'default'], `Error from server (NotFound): ${EV} "${nope}" not found`],
      [['get', 'events', nope, '-n', 'default'], `Error from server (NotFound): events "${nope}" not found`],
      [['delete', EV, nope, '-n', 'default'], `Error from server (NotFound): ${EV} "${nope}" not found`],
      [
        ['create', '-f', file],
        `Error from server (AlreadyExists): error when creating "${file}": ${EV} "dup" already exists`,
      ],
      [
        [
          'create',
          '-f',
          writeManifest(cfg, `${ns}-inv.yaml`, eventManifest(ns, 'inv', {}, { type: 'Bogus' })),
        ],
        'The Event "inv" is invalid: type: Invalid value: "": has invalid value: Bogus',
      ],
    ];
    for (const [args, message] of cases) {
      const r = await k(...args);
      expect([r.code, r.stderr.trim()]).toEqual([1, message]);
    }
  });

  it('a bad token is 401: kubectl asks to log in', async () => {
    const r = await kubectl(cfg, ['get', EV, '-n', 'default'], { kubeconfig: cfg.badKubeconfig });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error: You must be logged in to the server \((Unauthorized|the server has asked for the client to provide credentials)\)/,
    );
  });
});
