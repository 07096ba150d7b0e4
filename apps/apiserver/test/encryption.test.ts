import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiServerEntry, runNode, TestApiServer } from '@keel/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { STORED_RESOURCE_GROUPS } from '../src/server/stored-resources.js';
import { eventually } from './support/http.js';

const dir = mkdtempSync(join(tmpdir(), 'keel-encryption-'));
const SECRETS = '/api/v1/namespaces/default/secrets';
const PLAIN = Buffer.from('the launch codes').toString('base64');

function configFile(name: string, providers: unknown[]): string {
  const path = join(dir, name);
  const doc = {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [{ resources: ['secrets'], providers }],
  };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
const aescbc = (name: string, secret: string) => ({ aescbc: { keys: [{ name, secret }] } });

const redisUrl = inject('redisUrl');
const prefix = `/encryption-${randomBytes(6).toString('hex')}`;
/** What Redis itself holds: the object's stored value, and every value in the event log. */
function redis(...args: string[]): string {
  return execFileSync('redis-cli', ['-u', redisUrl, '--no-raw', ...args], { encoding: 'utf8' });
}
const storedValue = (name: string) =>
  execFileSync('redis-cli', ['-u', redisUrl, 'HGET', `{${prefix}}:obj:/secrets/default/${name}`, 'v'], {
    encoding: 'utf8',
  }).trim();

const running: TestApiServer[] = [];
async function start(config: string): Promise<TestApiServer> {
  const server = await TestApiServer.start({
    args: [
      `--store-servers=${redisUrl}`,
      `--store-prefix=${prefix}`,
      `--encryption-provider-config=${config}`,
    ],
  });
  running.push(server);
  await server.ready();
  return server;
}
async function stop(server: TestApiServer): Promise<void> {
  await server.stop();
  running.splice(running.indexOf(server), 1);
}
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
});

describe('--encryption-provider-config (Redis)', () => {
  const key1 = randomBytes(32).toString('base64');
  const key2 = randomBytes(32).toString('base64');

  it('stores Secrets encrypted in Redis, serves them decrypted, and rotates keys through a rewrite', async () => {
    const first = await start(configFile('one.json', [aescbc('key1', key1), { identity: {} }]));
    const body = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'codes' }, data: { v: PLAIN } };
    expect((await first.request('POST', SECRETS, { body })).status).toBe(201);
    expect((await first.request('GET', `${SECRETS}/codes`)).json).toMatchObject({ data: { v: PLAIN } });
    expect(storedValue('codes')).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    // Neither the object nor the watch log holds the plain text.
    expect(redis('XRANGE', `{${prefix}}:log`, '-', '+')).not.toContain(PLAIN);
    expect(storedValue('codes')).not.toContain(PLAIN);
    await stop(first);

    // key2 now writes; key1 still reads what it wrote.
    const second = await start(configFile('two.json', [aescbc('key2', key2), aescbc('key1', key1)]));
    const got = await second.request('GET', `${SECRETS}/codes`);
    expect(got.json).toMatchObject({ data: { v: PLAIN } });
    expect(storedValue('codes')).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    // `kubectl get secrets -o json | kubectl replace -f -`: an unchanged update re-encrypts.
    expect((await second.request('PUT', `${SECRETS}/codes`, { body: got.json })).status).toBe(200);
    expect(storedValue('codes')).toMatch(/^k8s:enc:aescbc:v1:key2:/);
    await stop(second);

    // Without the key that wrote it, a Secret cannot be read: reads answer 500 naming the key,
    // never ciphertext, and the server's own informers (quota counts Secrets) keep it unready.
    const third = await TestApiServer.start({
      args: [
        `--store-servers=${redisUrl}`,
        `--store-prefix=${prefix}`,
        `--encryption-provider-config=${configFile('three.json', [aescbc('key1', key1)])}`,
      ],
    });
    running.push(third);
    const refused = await third.request('GET', `${SECRETS}/codes`);
    expect(refused.status).toBe(500);
    expect(refused.json).toMatchObject({
      kind: 'Status',
      code: 500,
      reason: 'InternalError',
      message:
        'Internal error occurred: unable to transform key "/secrets/default/codes": no matching prefix found',
    });
    const readyz = await eventually(
      () => third.request('GET', '/readyz?verbose'),
      (r) => r.text.includes('[-]poststarthook/generic-apiserver-start-informers failed'),
    );
    expect(readyz.status).toBe(500);
  });

  it('refuses a configuration problem at start-up with one line naming the file and field', async () => {
    const bad = configFile('bad.json', [aescbc('k', Buffer.alloc(7).toString('base64'))]);
    const r = await runNode(apiServerEntry, [`--encryption-provider-config=${bad}`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `Error: encryption provider config file ${bad}: resources[0].providers[0].aescbc.keys[0].secret: ` +
        'secret is not of the expected length, got 7, expected one of [16 24 32]',
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the stored resources encryption can name', () => {
  it('are exactly the resources the server stores, in their groups', async () => {
    const server = await TestApiServer.start({ args: [] });
    running.push(server);
    await server.ready();
    const served = new Map<string, string>();
    const core = (await server.request('GET', '/api/v1')).json as {
      resources: { name: string; verbs: string[] }[];
    };
    for (const r of core.resources)
      if (!r.name.includes('/') && r.verbs.includes('get')) served.set(r.name, '');
    const groups = (await server.request('GET', '/apis')).json as {
      groups: { name: string; preferredVersion: { groupVersion: string } }[];
    };
    for (const g of groups.groups) {
      const list = (await server.request('GET', `/apis/${g.preferredVersion.groupVersion}`)).json as {
        resources: { name: string; verbs: string[] }[];
      };
      for (const r of list.resources) {
        // events.k8s.io Events are kept under the core Events' keys.
        if (!r.name.includes('/') && r.verbs.includes('get') && !served.has(r.name))
          served.set(r.name, g.name);
      }
    }
    expect(Object.fromEntries([...served].sort())).toEqual(
      Object.fromEntries(Object.entries(STORED_RESOURCE_GROUPS).sort()),
    );
  });
});
