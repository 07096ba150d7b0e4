import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { ConfigError } from '../config-error.js';
import { BuiltInAuthorizationOptions, type AuthorizationConfig } from '../options/authorization-options.js';
import { TestPKI } from '@keel/testing';
import { buildAuthorizer } from './build.js';
import { NodeGraph } from './node/index.js';
import type { Attributes } from './types.js';

const pki = new TestPKI();
afterAll(() => pki.cleanup());

function config(argv: string[]): AuthorizationConfig {
  const o = new BuiltInAuthorizationOptions();
  const fss = new NamedFlagSets('test');
  o.addFlags(fss);
  expect(parseArgs(fss, argv).errors).toEqual([]);
  expect(o.validate()).toEqual([]);
  const c: { authorization?: AuthorizationConfig } = {};
  o.applyTo(c);
  if (!c.authorization) throw new Error('no config');
  return c.authorization;
}

const who = (name: string, groups: string[]): Attributes => ({
  user: { name, uid: '', groups, extra: {} },
  verb: 'create',
  isResourceRequest: true,
  path: '/api/v1/namespaces/ns/pods',
  namespace: 'ns',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: '',
  name: '',
});
const bob = who('bob', ['system:authenticated']);
const admin = who('root', ['system:masters', 'system:authenticated']);
const anon = who('system:anonymous', ['system:unauthenticated']);

describe('buildAuthorizer', () => {
  const policy = () =>
    pki.file(
      'abac.jsonl',
      '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"bob","namespace":"*","resource":"*","apiGroup":"*"}}\n',
    );

  it.each<[string, () => string[], Attributes, string, string]>([
    ['default AlwaysAllow', () => [], anon, 'allow', ''],
    [
      'AlwaysDeny',
      () => ['--authorization-mode', 'AlwaysDeny'],
      bob,
      'noOpinion',
      'Everything is forbidden.',
    ],
    [
      'AlwaysDeny still lets system:masters in',
      () => ['--authorization-mode', 'AlwaysDeny'],
      admin,
      'allow',
      '',
    ],
    [
      'AlwaysDeny then AlwaysAllow',
      () => ['--authorization-mode', 'AlwaysDeny,AlwaysAllow'],
      bob,
      'allow',
      '',
    ],
    [
      'ABAC allows by policy',
      () => ['--authorization-mode', 'ABAC', '--authorization-policy-file', policy()],
      bob,
      'allow',
      '',
    ],
    [
      'ABAC: no match',
      () => ['--authorization-mode', 'ABAC', '--authorization-policy-file', policy()],
      anon,
      'noOpinion',
      'No policy matched.',
    ],
    [
      'ABAC then AlwaysDeny joins reasons',
      () => ['--authorization-mode', 'ABAC,AlwaysDeny', '--authorization-policy-file', policy()],
      anon,
      'noOpinion',
      'No policy matched.\nEverything is forbidden.',
    ],
    [
      'AlwaysDeny then ABAC',
      () => ['--authorization-mode', 'AlwaysDeny,ABAC', '--authorization-policy-file', policy()],
      bob,
      'allow',
      '',
    ],
  ])('%s', async (_name, argv, attrs, decision, reason) => {
    const { authorizer } = buildAuthorizer(config(argv()));
    expect(await authorizer.authorize(attrs)).toEqual({ decision, reason });
  });

  it('refuses a Webhook connection-config that cannot be read', () => {
    const missing = join(pki.dir, 'none.conf');
    expect(() =>
      buildAuthorizer(
        config(['--authorization-mode', 'Webhook', '--authorization-webhook-config-file', missing]),
      ),
    ).toThrow(
      new ConfigError(
        `--authorization-webhook-config-file: connection-config ${missing}: no such file or directory`,
      ),
    );
  });

  it('Node mode decides from the graph it is given, and needs one', () => {
    expect(() => buildAuthorizer(config(['--authorization-mode', 'Node']))).toThrow(
      new ConfigError('--authorization-mode Node needs the node graph'),
    );
    const { authorizer } = buildAuthorizer(config(['--authorization-mode', 'Node,AlwaysDeny']), {
      nodeGraph: new NodeGraph(),
    });
    const node = { ...bob, user: { name: 'system:node:n1', uid: '', groups: ['system:nodes'], extra: {} } };
    return Promise.all([
      expect(authorizer.authorize(node)).resolves.toEqual({ decision: 'allow', reason: '' }),
      expect(authorizer.authorize({ ...node, verb: 'update' })).resolves.toEqual({
        decision: 'noOpinion',
        reason: 'Everything is forbidden.',
      }),
    ]);
  });

  it('refuses an ABAC file that cannot be read', () => {
    const missing = join(pki.dir, 'none.jsonl');
    expect(() =>
      buildAuthorizer(config(['--authorization-mode', 'ABAC', '--authorization-policy-file', missing])),
    ).toThrow(new ConfigError(`--authorization-policy-file: open ${missing}: no such file or directory`));
  });

  it('passes the ABAC warnings on', () => {
    const path = pki.file('v0.jsonl', '{"user":"bob"}\n');
    expect(
      buildAuthorizer(config(['--authorization-mode', 'ABAC', '--authorization-policy-file', path])).warnings,
    ).toHaveLength(1);
  });
});
