/**
 * kubectl's writes against the built keel-apiserver, on both stores: replace, the three patch
 * types, client-side apply (last-applied annotation, strategic merge patch), server-side apply
 * (managedFields per manager, conflicts, --force-conflicts), server dry-run, and delete by name,
 * by label and --all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApiServer } from '@keel/testing';
import { body, evPath, startServer, STORES, uniqueNs, type Json } from './support/events.js';
import { clientConfig, writeManifest, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { eventManifest, fieldsByManager } from './support/clients/manifests.js';

const EV = 'events.events.k8s.io';
const OBJ = 'event.events.k8s.io';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

describe.each(STORES)('kubectl writes against Keel (%s store)', (store) => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const k = (...args: string[]) => kubectl(cfg, args);
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  const manifest = (ns: string, name: string, labels: Record<string, string> = {}, over: Json = {}) =>
    writeManifest(
      cfg,
      `${ns}-${name}-${Object.values(labels).join('-')}.yaml`,
      eventManifest(ns, name, labels, over),
    );
  /** The object as the server stores it (managedFields included, whatever kubectl hides). */
  const raw = async (ns: string, name: string) => body(await server.request('GET', evPath(ns, name)));
  const labels = async (ns: string, name: string) => (await raw(ns, name))['metadata'] as Json;

  beforeAll(async () => {
    server = await startServer(store);
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('replace -f writes the edited object; a stale resourceVersion is a Conflict', async () => {
    const ns = uniqueNs('replace');
    await ok('create', '-f', manifest(ns, 'r1', { v: '1' }));
    const live = JSON.parse(await ok('get', EV, 'r1', '-n', ns, '-o', 'json')) as Json;
    const meta = live['metadata'] as Json;
    const edited = { ...live, metadata: { ...meta, labels: { v: '2' } } };
    const file = writeManifest(cfg, `${ns}-r1-edited.json`, JSON.stringify(edited));
    expect(await ok('replace', '-f', file)).toBe(`${OBJ}/r1 replaced\n`);
    expect((await labels(ns, 'r1'))['labels']).toEqual({ v: '2' });
    // The same file again carries the old resourceVersion.
    const stale = await k('replace', '-f', file);
    expect([stale.code, stale.stderr.trim()]).toEqual([
      1,
      `Error from server (Conflict): error when replacing "${file}": Operation cannot be fulfilled on ${EV} "r1": the object has been modified; please apply your changes to the latest version and try again`,
    ]);
  });

  it.each([
    ['merge', '{"metadata":{"labels":{"p":"merge"}}}'],
    ['strategic', '{"metadata":{"labels":{"p":"strategic"}}}'],
    ['json', '[{"op":"add","path":"/metadata/labels/p","value":"json"}]'],
  ])('patch --type=%s', async (type, patch) => {
    const ns = uniqueNs('patch');
    await ok('create', '-f', manifest(ns, 'p1', { keep: 'yes' }));
    expect(await ok('patch', EV, 'p1', '-n', ns, `--type=${type}`, '-p', patch)).toBe(`${OBJ}/p1 patched\n`);
    expect((await labels(ns, 'p1'))['labels']).toEqual({ keep: 'yes', p: type });
    // Only series, labels and annotations may change on an events.k8s.io Event.
    const r = await k('patch', EV, 'p1', '-n', ns, '--type=merge', '-p', '{"note":"changed"}');
    expect([r.code, r.stderr.trim()]).toEqual([
      1,
      'The Event "p1" is invalid: message: Invalid value: "changed": field is immutable',
    ]);
  });

  it('client-side apply: created, configured, unchanged; the last-applied annotation drives removals', async () => {
    const ns = uniqueNs('csa');
    expect(await ok('apply', '-f', manifest(ns, 'a1', { a: '1', b: '2' }))).toBe(`${OBJ}/a1 created\n`);
    expect(await ok('apply', '-f', manifest(ns, 'a1', { a: '1', b: '2' }))).toBe(`${OBJ}/a1 unchanged\n`);
    expect(await ok('apply', '-f', manifest(ns, 'a1', { a: '3' }))).toBe(`${OBJ}/a1 configured\n`);
    const meta = await labels(ns, 'a1');
    // b was in the last applied configuration and no longer is: the three-way patch removes it.
    expect(meta['labels']).toEqual({ a: '3' });
    const annotations = meta['annotations'] as Record<string, string>;
    expect(JSON.parse(annotations[LAST_APPLIED] ?? '{}')).toMatchObject({ metadata: { labels: { a: '3' } } });
    expect(Object.keys(fieldsByManager(await raw(ns, 'a1')))).toEqual(['kubectl-client-side-apply/Update']);
  });

  it('server-side apply: creates, records the manager, conflicts with another one until forced', async () => {
    const ns = uniqueNs('ssa');
    const mine = manifest(ns, 's1', { app: 'one' });
    expect(await ok('apply', '--server-side', '-f', mine)).toBe(`${OBJ}/s1 serverside-applied\n`);
    expect(Object.keys(fieldsByManager(await raw(ns, 's1')))).toEqual(['kubectl/Apply']);
    // Another manager applying the same value shares the field; a different value conflicts.
    await ok('apply', '--server-side', '--field-manager=sharer', '-f', mine);
    const theirs = manifest(ns, 's1', { app: 'two' });
    const conflict = await k('apply', '--server-side', '--field-manager=other', '-f', theirs);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr.split('\n')[0]).toBe(
      'error: Apply failed with 2 conflicts: conflicts with "kubectl":',
    );
    expect(conflict.stderr).toContain(
      'conflicts with "kubectl":\n- .metadata.labels.app\nconflicts with "sharer":\n- .metadata.labels.app\n',
    );
    expect((await labels(ns, 's1'))['labels']).toEqual({ app: 'one' });
    await ok('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', theirs);
    const after = await raw(ns, 's1');
    expect((after['metadata'] as Json)['labels']).toEqual({ app: 'two' });
    const owners = fieldsByManager(after);
    expect(owners['other/Apply']).toMatchObject({ 'f:metadata': { 'f:labels': { 'f:app': {} } } });
    expect(owners['kubectl/Apply']).not.toHaveProperty('f:metadata');
    expect(owners['kubectl/Apply']).toHaveProperty('f:note');
  });

  it('server-side apply removes what a manager stops applying, unless another manager owns it', async () => {
    const ns = uniqueNs('prune');
    await ok('apply', '--server-side', '-f', manifest(ns, 'pr', { a: '1', b: '2', c: '3' }));
    await ok('apply', '--server-side', '--field-manager=keeper', '-f', manifest(ns, 'pr', { c: '3' }));
    await ok('apply', '--server-side', '-f', manifest(ns, 'pr', { a: '1' }));
    expect((await labels(ns, 'pr'))['labels']).toEqual({ a: '1', c: '3' });
  });

  it('client-side apply moves to server-side apply with --force-conflicts', async () => {
    const ns = uniqueNs('upgrade');
    await ok('apply', '-f', manifest(ns, 'u1', { app: 'csa' }));
    const r = await k('apply', '--server-side', '-f', manifest(ns, 'u1', { app: 'ssa' }));
    expect(r.stderr).toContain(
      'conflict with "kubectl-client-side-apply" using events.k8s.io/v1: .metadata.labels.app',
    );
    await ok('apply', '--server-side', '--force-conflicts', '-f', manifest(ns, 'u1', { app: 'ssa' }));
    expect((await labels(ns, 'u1'))['labels']).toEqual({ app: 'ssa' });
    expect(Object.keys(fieldsByManager(await raw(ns, 'u1')))).toContain('kubectl/Apply');
  });

  it('--dry-run=server goes through the server and changes nothing', async () => {
    const ns = uniqueNs('dry');
    const file = manifest(ns, 'd1');
    expect(await ok('create', '--dry-run=server', '-f', file)).toBe(`${OBJ}/d1 created (server dry run)\n`);
    expect(await ok('apply', '--server-side', '--dry-run=server', '-f', file)).toBe(
      `${OBJ}/d1 serverside-applied (server dry run)\n`,
    );
    expect((await server.request('GET', evPath(ns, 'd1'))).status).toBe(404);
    await ok('create', '-f', file);
    expect(await ok('delete', EV, 'd1', '-n', ns, '--dry-run=server')).toBe(
      `${OBJ} "d1" deleted (server dry run)\n`,
    );
    expect(await ok('delete', EV, '--all', '-n', ns, '--dry-run=server')).toBe(
      `${OBJ} "d1" deleted (server dry run)\n`,
    );
    expect((await server.request('GET', evPath(ns, 'd1'))).status).toBe(200);
  });

  it('deletes by name, by label and with --all, leaving other namespaces alone', async () => {
    const [ns, other] = [uniqueNs('del'), uniqueNs('del')];
    for (const [n, l] of [
      ['x1', 'a'],
      ['x2', 'b'],
      ['x3', 'b'],
    ] as const) {
      await ok('create', '-f', manifest(ns, n, { group: l }));
    }
    await ok('create', '-f', manifest(other, 'x9'));
    expect(await ok('delete', EV, 'x1', '-n', ns)).toMatch(new RegExp(`^${OBJ} "x1" deleted`));
    expect(await ok('delete', EV, '-n', ns, '-l', 'group=b')).toMatch(/"x2" deleted.*\n.*"x3" deleted/);
    await ok('create', '-f', manifest(ns, 'x4'));
    expect(await ok('delete', EV, '--all', '-n', ns)).toMatch(/"x4" deleted/);
    expect(await ok('get', EV, '-n', ns, '-o', 'name')).toBe('');
    expect(await ok('get', EV, '-n', other, '-o', 'name')).toBe(`${OBJ}/x9\n`);
  });
});
