/**
 * The real kubectl against service accounts and secrets: `kubectl create serviceaccount`,
 * `kubectl create token` (TokenRequest in protobuf) with its flags, `kubectl create secret`,
 * and the token it printed used as kubectl's credential.
 */
import { TestApiServer, TestPKI } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig, type ClientConfig } from './support/clients/kubeconfig.js';
import { kubectl, kubectlOk } from './support/clients/kubectl.js';
import { expectStatus, podBody, podPath, unique, type Json } from './support/core.js';
import { jwtPart, writeKeys } from './support/tokens.js';

const ISSUER = 'https://kubectl.keel.test';
const pki = new TestPKI();
const keys = writeKeys(pki, 'sa', 'rsa');
afterAll(() => pki.cleanup());

describe('kubectl create token', () => {
  let server: TestApiServer;
  let cfg: ClientConfig;
  const ok = (...args: string[]) => kubectlOk(cfg, args);
  beforeAll(async () => {
    server = await TestApiServer.start({
      args: [
        `--service-account-issuer=${ISSUER}`,
        `--service-account-key-file=${keys.pubFile}`,
        `--service-account-signing-key-file=${keys.keyFile}`,
      ],
    });
    await server.ready();
    cfg = clientConfig(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates a service account and a token kubectl can then use', async () => {
    const ns = unique('tok');
    await ok('create', 'namespace', ns);
    expect(await ok('create', 'serviceaccount', 'builder', '-n', ns)).toBe(
      'serviceaccount/builder created\n',
    );
    // The server gives every namespace its `default` account.
    expect(await ok('get', 'sa', '-n', ns, '-o', 'name')).toBe(
      'serviceaccount/builder\nserviceaccount/default\n',
    );
    const token = (
      await ok(
        'create',
        'token',
        'builder',
        '-n',
        ns,
        '--duration=20m',
        '--audience=https://kubectl.keel.test',
      )
    ).trim();
    const claims = jwtPart(token, 1);
    expect(claims['sub']).toBe(`system:serviceaccount:${ns}:builder`);
    expect((claims['exp'] as number) - (claims['iat'] as number)).toBe(1200);
    expect(await ok('--token', token, 'get', 'configmaps', '-n', ns, '-o', 'name')).toBe(
      'configmap/kube-root-ca.crt\n',
    );
  });

  it('binds a token to a pod', async () => {
    const ns = 'default';
    const sa = unique('bot');
    await ok('create', 'serviceaccount', sa);
    const pod = unique('pod');
    await expectStatus(
      server.request('POST', podPath(ns), { body: podBody(pod, { serviceAccountName: sa }) }),
      201,
    );
    const token = (
      await ok('create', 'token', sa, '--bound-object-kind=Pod', `--bound-object-name=${pod}`)
    ).trim();
    expect((jwtPart(token, 1)['kubernetes.io'] as Json)['pod']).toMatchObject({ name: pod });
  });

  it('prints the server refusals', async () => {
    const sa = unique('bot');
    await ok('create', 'serviceaccount', sa);
    const short = await kubectl(cfg, ['create', 'token', sa, '--duration=1m']);
    expect(short.code).toBe(1);
    expect(short.stderr).toBe(
      'error: failed to create token: TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n',
    );
    const missing = await kubectl(cfg, ['create', 'token', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: failed to create token: serviceaccounts "nobody" not found\n');
  });

  it('creates secrets from literals, as TLS and as docker registry credentials', async () => {
    const name = unique('sec');
    expect(
      await ok(
        'create',
        'secret',
        'generic',
        name,
        '--from-literal=user=admin',
        '--from-literal=pass=s3cret',
      ),
    ).toBe(`secret/${name} created\n`);
    const got = JSON.parse(await ok('get', 'secret', name, '-o', 'json')) as Json;
    expect(got['type']).toBe('Opaque');
    expect(got['data']).toEqual({
      pass: Buffer.from('s3cret').toString('base64'),
      user: Buffer.from('admin').toString('base64'),
    });
    const reg = unique('reg');
    await ok(
      'create',
      'secret',
      'docker-registry',
      reg,
      '--docker-server=r.example',
      '--docker-username=u',
      '--docker-password=p',
    );
    expect(
      await ok('get', 'secrets', '--field-selector=type=kubernetes.io/dockerconfigjson', '-o', 'name'),
    ).toContain(`secret/${reg}\n`);
  });
});
