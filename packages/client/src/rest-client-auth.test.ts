import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatusError } from '@keel/apimachinery';
import { ADMIN_TOKEN, freePort, TestApiServer, USER_TOKEN } from '@keel/testing';
import { connectionFromUrl, loadConnectionConfig, NetworkError, RestClient } from './index.js';
import { EVENTS, kubeconfig, tempDir, writeConfig } from './testing/fixtures.js';
import { TestPKI } from '@keel/testing';

// Every way a connection-config can say who we are and whom we trust, against the built
// keel-apiserver: anonymous access is off (so credentials must arrive) and AlwaysDeny makes
// the 403 message name the user the server saw (system:masters is let through).

const pki = new TestPKI();
const clientCA = pki.ca('client-test-ca');
const carol = pki.client(clientCA, 'carol', ['dev']);
const root = pki.client(clientCA, 'root', ['system:masters']);
const b64 = (s: string) => Buffer.from(s).toString('base64');

let server: TestApiServer;
let dir: string;
const clients: RestClient[] = [];

beforeAll(async () => {
  server = await TestApiServer.start({
    args: [
      '--anonymous-auth=false',
      `--client-ca-file=${clientCA.certFile}`,
      '--authorization-mode=AlwaysDeny',
    ],
  });
  await server.ready();
  dir = tempDir();
  mkdirSync(join(dir, 'pki'));
  writeFileSync(join(dir, 'pki', 'server-ca.crt'), server.ca);
  writeFileSync(join(dir, 'pki', 'token'), `${USER_TOKEN}\n`);
  writeFileSync(join(dir, 'pki', 'carol.crt'), carol.certPem);
  writeFileSync(join(dir, 'pki', 'carol.key'), carol.keyPem);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await server.stop();
  pki.cleanup();
});

/** A client from a connection-config file written with these cluster and user entries. */
function clientFor(cluster: Record<string, unknown>, user: Record<string, unknown>): RestClient {
  // Tables are built before the server exists, so its CA is filled in here.
  const filled = Object.fromEntries(
    Object.entries(cluster).map(([k, v]) => [k, v === '<server CA as base64>' ? b64(server.ca) : v]),
  );
  const path = writeConfig(
    dir,
    `config-${clients.length}`,
    kubeconfig({ server: server.url, ...filled }, user),
  );
  const client = new RestClient(loadConnectionConfig(path));
  clients.push(client);
  return client;
}

async function outcome(client: RestClient): Promise<string> {
  try {
    await client.list(`${EVENTS}/events`);
    return 'ok';
  } catch (err) {
    if (err instanceof StatusError) return `${err.code} ${err.reason}: ${err.message}`;
    if (err instanceof NetworkError) return `network: ${err.message}`;
    throw err;
  }
}

const ca = { 'certificate-authority': 'pki/server-ca.crt' };
const forbidden = (user: string) =>
  `403 Forbidden: events.events.k8s.io is forbidden: User "${user}" cannot list resource "events" in API group "events.k8s.io" at the cluster scope: Everything is forbidden.`;

describe('credentials from the connection-config reach the server', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    ['a token (system:masters)', ca, { token: ADMIN_TOKEN }, 'ok'],
    ['a tokenFile relative to the file', ca, { tokenFile: 'pki/token' }, forbidden('alice')],
    [
      'client certificate files relative to the file',
      ca,
      { 'client-certificate': 'pki/carol.crt', 'client-key': 'pki/carol.key' },
      forbidden('carol'),
    ],
    [
      'inline client certificate data (system:masters)',
      { 'certificate-authority-data': '<server CA as base64>' },
      { 'client-certificate-data': b64(root.certPem), 'client-key-data': b64(root.keyPem) },
      'ok',
    ],
    ['no credentials', ca, {}, '401 Unauthorized: Unauthorized'],
    ['a wrong token', ca, { token: 'not-a-token' }, '401 Unauthorized: Unauthorized'],
  ])('%s', async (_what, cluster, user, want) => {
    expect(await outcome(clientFor(cluster, user))).toBe(want);
  });
});

describe('trust and addressing', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['the server CA', ca, /^ok$/],
    ['insecure-skip-tls-verify', { 'insecure-skip-tls-verify': true }, /^ok$/],
    ['tls-server-name matching a certificate name', { ...ca, 'tls-server-name': 'localhost' }, /^ok$/],
    [
      'tls-server-name not in the certificate',
      { ...ca, 'tls-server-name': 'wrong.example' },
      /^network: GET https:\/\/127\.0\.0\.1:\d+\/apis\/events\.k8s\.io\/v1\/events: .*wrong\.example/,
    ],
    ['no CA (system roots only)', {}, /^network: GET https:\/\/127\.0\.0\.1:\d+\/.*certificate/],
  ])('%s', async (_what, cluster, want) => {
    expect(await outcome(clientFor(cluster, { token: ADMIN_TOKEN }))).toMatch(want);
  });

  it('--master replaces the file’s server and keeps its CA and token', async () => {
    const dead = `https://127.0.0.1:${await freePort()}`;
    const path = writeConfig(
      dir,
      'config-master',
      kubeconfig({ server: dead, ...ca }, { token: ADMIN_TOKEN }),
    );
    const viaFile = new RestClient(loadConnectionConfig(path));
    const viaMaster = new RestClient(loadConnectionConfig(path, { master: server.url }));
    clients.push(viaFile, viaMaster);
    expect(await outcome(viaFile)).toMatch(/^network: GET https:\/\/127\.0\.0\.1:\d+\/apis\/.*ECONNREFUSED/);
    expect(await outcome(viaMaster)).toBe('ok');
  });

  it('connectionFromUrl alone has no credentials: the server says 401 once TLS is trusted', async () => {
    const client = new RestClient({ ...connectionFromUrl(server.url), ca: server.ca });
    clients.push(client);
    expect(await outcome(client)).toBe('401 Unauthorized: Unauthorized');
  });
});
