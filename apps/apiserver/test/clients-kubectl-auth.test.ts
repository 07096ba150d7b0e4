/**
 * The real kubectl's access checks against Keel under ABAC: `auth can-i` (one question and
 * `--list`), `auth whoami` (table and JSON), and `--as` / `--as-group` with and without the
 * impersonate permission. kubectl sends these reviews as protobuf.
 */
import { TestApiServer, TestPKI, USER_TOKEN } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, tokenKubeconfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl } from './support/clients/kubectl.js';

const policy = (spec: Record<string, unknown>) =>
  JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const everyone = (spec: Record<string, unknown>) =>
  policy({ group: 'system:authenticated', namespace: '*', ...spec });

// alice (groups dev,qa) reads everything in default and may impersonate users but no group;
// jane may list pods in default; every authenticated user may ask the self reviews, and
// read discovery (which kubectl reads before asking).
const POLICY = [
  policy({ user: 'alice', namespace: 'default', resource: '*', apiGroup: '*', readonly: true }),
  policy({ user: 'alice', namespace: '', resource: 'users', apiGroup: '' }),
  policy({ user: 'jane', namespace: 'default', resource: 'pods', apiGroup: '', readonly: true }),
  everyone({ apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
  everyone({ apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }),
  everyone({ apiGroup: 'authentication.k8s.io', resource: 'selfsubjectreviews' }),
  everyone({ nonResourcePath: '/api*', readonly: true }),
  everyone({ nonResourcePath: '/version', readonly: true }),
].join('\n');

const pki = new TestPKI();
const policyFile = pki.file('policy.jsonl', POLICY + '\n');
afterAll(() => pki.cleanup());

/** A printed table: one array of cells per line (columns are separated by 2+ spaces). */
function table(stdout: string): string[][] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/\s{2,}/));
}

describe('kubectl auth against Keel', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  let alice: string;
  const asAdmin = (...args: string[]) => kubectl(cfg, args);
  const asAlice = (...args: string[]) => kubectl(cfg, args, { kubeconfig: alice });

  beforeAll(async () => {
    server = await TestApiServer.start({
      args: ['--authorization-mode=ABAC', `--authorization-policy-file=${policyFile}`],
    });
    await server.ready();
    cfg = clientConfig(server);
    alice = tokenKubeconfig(cfg, 'alice', USER_TOKEN);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('can-i answers yes or no with the exit code', async () => {
    const create = await asAlice('auth', 'can-i', 'create', 'pods');
    expect([create.code, create.stdout]).toEqual([1, 'no - No policy matched.\n']);
    const list = await asAlice('auth', 'can-i', 'list', 'pods');
    expect([list.code, list.stdout]).toEqual([0, 'yes\n']);
    const elsewhere = await asAlice('auth', 'can-i', 'get', 'configmaps', '-n', 'platform-system');
    expect(elsewhere.code).toBe(1);
    const admin = await asAdmin('auth', 'can-i', 'create', 'pods', '--all-namespaces');
    expect([admin.code, admin.stdout]).toEqual([0, 'yes\n']);
  });

  it('can-i --list prints the rules ABAC grants in the namespace', async () => {
    const r = await asAlice('auth', 'can-i', '--list');
    expect(r.code).toBe(0);
    const rows = table(r.stdout);
    expect(rows[0]).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['*.*', '[]', '[]', '[get list watch]'],
        ['selfsubjectaccessreviews.authorization.k8s.io', '[]', '[]', '[*]'],
        ['selfsubjectrulesreviews.authorization.k8s.io', '[]', '[]', '[*]'],
        ['selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[*]'],
        ['[/version]', '[]', '[get]'],
      ]),
    );
    // In another namespace alice's read rule for default is gone.
    const qa = table((await asAlice('auth', 'can-i', '--list', '-n', 'qa')).stdout);
    expect(qa.some((row) => row[0] === '*.*')).toBe(false);
    expect(qa).toContainEqual(['selfsubjectreviews.authentication.k8s.io', '[]', '[]', '[*]']);
  });

  it('whoami prints the caller, as a table and as JSON', async () => {
    const r = await asAlice('auth', 'whoami');
    expect([r.code, table(r.stdout)]).toEqual([
      0,
      [
        ['ATTRIBUTE', 'VALUE'],
        ['Username', 'alice'],
        ['UID', 'uid-alice'],
        ['Groups', '[dev qa system:authenticated]'],
      ],
    ]);
    const json = await asAdmin('auth', 'whoami', '-o', 'json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      kind: 'SelfSubjectReview',
      apiVersion: 'authentication.k8s.io/v1',
      status: {
        userInfo: { username: 'admin', uid: 'uid-admin', groups: ['system:masters', 'system:authenticated'] },
      },
    });
  });

  it('--as acts as the user when the caller may impersonate users', async () => {
    const who = await asAlice('auth', 'whoami', '--as=jane');
    expect(table(who.stdout)).toEqual([
      ['ATTRIBUTE', 'VALUE'],
      ['Username', 'jane'],
      ['Groups', '[system:authenticated]'],
    ]);
    expect((await asAlice('auth', 'can-i', 'list', 'pods', '--as=jane')).stdout).toBe('yes\n');
    const get = await asAlice('get', 'configmaps', '--as=jane');
    expect(get.code).toBe(1);
    expect(get.stderr).toContain(
      'configmaps is forbidden: User "jane" cannot list resource "configmaps" in API group "" in the namespace "default": No policy matched.',
    );
  });

  it('--as-group needs the permission to impersonate groups', async () => {
    const refused = await asAlice('get', 'pods', '--as=jane', '--as-group=devs');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'groups "devs" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope: No policy matched.',
    );
    // whoami reads a 403 as the API being out of reach.
    const whoami = await asAlice('auth', 'whoami', '--as=jane', '--as-group=devs');
    expect(whoami.code).toBe(1);
    const admin = await asAdmin('auth', 'whoami', '--as=jane', '--as-group=devs', '--as-uid=7', '-o', 'json');
    expect(JSON.parse(admin.stdout)).toMatchObject({
      status: { userInfo: { username: 'jane', uid: '7', groups: ['devs', 'system:authenticated'] } },
    });
  });

  it('can-i tells who may impersonate what', async () => {
    // Users and groups are cluster-wide: asked without a namespace (-A), as the filter asks.
    const users = await asAlice('auth', 'can-i', 'impersonate', 'users', '-A');
    expect([users.code, users.stdout]).toEqual([0, 'yes\n']);
    const groups = await asAlice('auth', 'can-i', 'impersonate', 'groups', '-A');
    expect([groups.code, groups.stdout]).toEqual([1, 'no - No policy matched.\n']);
    // jane, through alice, may not impersonate anyone.
    const jane = await asAlice('auth', 'can-i', 'impersonate', 'users', '-A', '--as=jane');
    expect(jane.code).toBe(1);
  });
});
