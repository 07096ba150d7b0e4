/**
 * Admission plugins configured through the command line and --admission-control-config-file,
 * end to end: EventRateLimit's 429, OwnerReferencesPermissionEnforcement under RBAC, and the
 * one-line start-up errors of a bad configuration.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiServerEntry, runNode, TestApiServer, USER_TOKEN } from '@keel/testing';
import { corePath, newCoreEvent, newEvent, evPath, uniqueNs } from './support/events.js';
import { RBAC, role, roleBinding, user } from './support/rbac.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-admission-e2e-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const admissionConfig = file(
  'admission.yaml',
  `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: EventRateLimit
  path: event-rate-limit.yaml
`,
);
file(
  'event-rate-limit.yaml',
  `apiVersion: eventratelimit.admission.k8s.io/v1alpha1
kind: Configuration
limits:
- type: Namespace
  qps: 1
  burst: 3
`,
);

describe('EventRateLimit and OwnerReferencesPermissionEnforcement', () => {
  let server: TestApiServer;
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        '--authorization-mode=RBAC',
        '--enable-admission-plugins=EventRateLimit,OwnerReferencesPermissionEnforcement',
        `--admission-control-config-file=${admissionConfig}`,
      ],
    });
    await server.ready();
  });
  afterAll(() => server.stop());

  const createNs = async (ns: string) =>
    expect(
      (await server.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } })).status,
    ).toBe(201);

  it('answers 429 with the real Status once a namespace spent its burst, in either Event API', async () => {
    const [a, b] = [uniqueNs('erl'), uniqueNs('erl')];
    await createNs(a);
    await createNs(b);
    const codes: number[] = [];
    for (let i = 0; i < 3; i++)
      codes.push((await server.request('POST', corePath(a), { body: newCoreEvent(a, `e${i}`) })).status);
    expect(codes).toEqual([201, 201, 201]);
    const refused = await server.request('POST', evPath(a), { body: newEvent(a, 'e3') });
    expect(refused.status).toBe(429);
    expect(refused.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `Too many requests: limit reached on type Namespace for key ${a}`,
      reason: 'TooManyRequests',
      code: 429,
    });
    // Another namespace has its own bucket; reads are never limited.
    expect((await server.request('POST', corePath(b), { body: newCoreEvent(b, 'e0') })).status).toBe(201);
    expect((await server.request('GET', corePath(a))).status).toBe(200);
  });

  it('lets only a user who may delete an object set its ownerReferences', async () => {
    const ns = uniqueNs('owners');
    await createNs(ns);
    const grant = async (name: string, rules: unknown[]) => {
      const r1 = await server.request('POST', `${RBAC}/namespaces/${ns}/roles`, {
        body: role(name, rules, ns),
      });
      const r2 = await server.request('POST', `${RBAC}/namespaces/${ns}/rolebindings`, {
        body: roleBinding(name, ['Role', name], [user('alice')], ns),
      });
      expect([r1.status, r2.status]).toEqual([201, 201]);
    };
    await grant('writer', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create', 'get'] }]);
    const owned = (name: string, block = false) => ({
      metadata: {
        name,
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: 'owner',
            uid: 'u-1',
            ...(block ? { blockOwnerDeletion: true } : {}),
          },
        ],
      },
    });
    const create = (name: string, block = false) =>
      server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
        body: owned(name, block),
        token: USER_TOKEN,
      });

    const refused = await create('c1');
    expect(refused.status).toBe(403);
    expect((refused.json as { message: string }).message).toMatch(
      /^configmaps "c1" is forbidden: cannot set an ownerRef on a resource you can't delete: .*, <nil>$/,
    );
    expect(
      (
        await server.request('POST', `/api/v1/namespaces/${ns}/configmaps`, {
          body: { metadata: { name: 'plain' } },
          token: USER_TOKEN,
        })
      ).status,
    ).toBe(201);

    await grant('deleter', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['delete'] }]);
    expect((await create('c2')).status).toBe(201);
    const blocked = await create('c3', true);
    expect(blocked.status).toBe(403);
    expect((blocked.json as { message: string }).message).toMatch(
      /^configmaps "c3" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: /,
    );
    await grant('finalizers', [{ apiGroups: [''], resources: ['configmaps/finalizers'], verbs: ['update'] }]);
    expect((await create('c4', true)).status).toBe(201);
  });
});

describe('a bad admission configuration', () => {
  const base = ['--bind-address=127.0.0.1', '--secure-port=1', `--cert-dir=${join(dir, 'certs')}`];
  it.each([
    [['--enable-admission-plugins=EventRateLimit'], /^EventRateLimit needs a configuration: /],
    [
      [
        '--enable-admission-plugins=EventRateLimit',
        `--admission-control-config-file=${join(dir, 'missing.yaml')}`,
      ],
      /^admission control config file .*missing\.yaml: cannot be read: ENOENT$/,
    ],
    [
      [
        '--enable-admission-plugins=EventRateLimit',
        `--admission-control-config-file=${file(
          'bad-erl.yaml',
          'apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n- name: EventRateLimit\n  configuration: {apiVersion: eventratelimit.admission.k8s.io/v1alpha1, kind: Configuration, limits: [{type: Server, qps: 1, burst: 0}]}\n',
        )}`,
      ],
      /^admission control config file .*bad-erl\.yaml: plugins\[0\]\.configuration: limits\[0\]\.burst: must be positive$/,
    ],
    [['--enable-admission-plugins=Nope'], /^--enable-admission-plugins: unknown plugin "Nope"/],
  ] as [string[], RegExp][])('%j exits 1 with one Error: line', async (args, message) => {
    const r = await runNode(apiServerEntry, [...base, ...args]);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('Error: '));
    expect(errors, r.stderr).toHaveLength(1);
    expect(errors[0]?.slice('Error: '.length)).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
