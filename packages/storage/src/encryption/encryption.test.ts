import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GenericStorage } from '../generic-storage.js';
import { MemoryBackend } from '../memory/memory-backend.js';
import { createMemoryStorage } from '../memory/memory-storage.js';
import { describeStorageConformance } from '../testing/index.js';
import { parseEncryptionConfig } from './config.js';

const key32 = () => randomBytes(32).toString('base64');

function config(providers: unknown[], resources = ['secrets']) {
  return {
    apiVersion: 'apiserver.config.k8s.io/v1',
    kind: 'EncryptionConfiguration',
    resources: [{ resources, providers }],
  };
}
const parse = (doc: unknown) => parseEncryptionConfig(doc, 'encryption provider config file /e.yaml');

// Everything the store promises (lists, paging, watches, conflicts, TTLs) holds when every value is encrypted.
describeStorageConformance('memory, encrypted with aesgcm', (opts) =>
  Promise.resolve(
    createMemoryStorage({
      ...opts,
      encryption: parse(config([{ aesgcm: { keys: [{ name: 'k', secret: key32() }] } }], ['*.*'])),
    }),
  ),
);

function stored(providers: unknown[], resources?: string[]) {
  const backend = new MemoryBackend();
  const storage = new GenericStorage(backend, { encryption: parse(config(providers, resources)) });
  return { backend, storage };
}

const secret = (value: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's' } as { name: string; resourceVersion?: string },
  data: { v: value },
});

describe('encryption at rest', () => {
  it.each(['aescbc', 'aesgcm', 'secretbox'])(
    '%s: stores the prefix and ciphertext, reads back the object',
    async (kind) => {
      const { backend, storage } = stored([{ [kind]: { keys: [{ name: 'key1', secret: key32() }] } }]);
      await storage.create('/secrets/default/s', secret('dG9wLXNlY3JldA=='));
      const raw = await backend.read('/secrets/default/s');
      expect(raw?.value.startsWith(`k8s:enc:${kind}:v1:key1:`)).toBe(true);
      expect(raw?.value).not.toContain('dG9wLXNlY3JldA==');
      expect(await storage.get('/secrets/default/s')).toMatchObject({ data: { v: 'dG9wLXNlY3JldA==' } });
    },
  );

  it('leaves resources the configuration does not name as plain JSON', async () => {
    const { backend, storage } = stored([{ aescbc: { keys: [{ name: 'k', secret: key32() }] } }]);
    await storage.create('/configmaps/default/c', { metadata: { name: 'c' }, data: { a: 'b' } });
    expect(JSON.parse((await backend.read('/configmaps/default/c'))?.value ?? '')).toMatchObject({
      data: { a: 'b' },
    });
  });

  it('rotates: data under an older key stays readable, and an unchanged update rewrites it with the new key', async () => {
    const old = { name: 'old', secret: key32() };
    const backend = new MemoryBackend();
    const before = new GenericStorage(backend, { encryption: parse(config([{ aescbc: { keys: [old] } }])) });
    await before.create('/secrets/default/s', secret('YQ=='));
    const after = new GenericStorage(backend, {
      encryption: parse(config([{ aescbc: { keys: [{ name: 'new', secret: key32() }, old] } }])),
    });
    const current = await after.get<ReturnType<typeof secret>>('/secrets/default/s');
    expect(current.data.v).toBe('YQ==');
    const rewritten = await after.guaranteedUpdate('/secrets/default/s', (c) => c ?? current);
    expect(Number(rewritten.metadata?.resourceVersion)).toBeGreaterThan(
      Number(current.metadata.resourceVersion),
    );
    expect((await backend.read('/secrets/default/s'))?.value.startsWith('k8s:enc:aescbc:v1:new:')).toBe(true);
    // Once current, an unchanged update writes nothing.
    const again = await after.guaranteedUpdate('/secrets/default/s', (c) => c ?? current);
    expect(again.metadata?.resourceVersion).toBe(rewritten.metadata?.resourceVersion);
  });

  it('reads data written before encryption only through identity, and refuses it otherwise', async () => {
    const backend = new MemoryBackend();
    await new GenericStorage(backend).create('/secrets/default/s', secret('cGxhaW4='));
    const k = { name: 'k', secret: key32() };
    const withIdentity = new GenericStorage(backend, {
      encryption: parse(config([{ aesgcm: { keys: [k] } }, { identity: {} }])),
    });
    expect(await withIdentity.get('/secrets/default/s')).toMatchObject({ data: { v: 'cGxhaW4=' } });
    const without = new GenericStorage(backend, { encryption: parse(config([{ aesgcm: { keys: [k] } }])) });
    await expect(without.get('/secrets/default/s')).rejects.toThrow(
      'unable to transform key "/secrets/default/s": no matching prefix found',
    );
  });

  it('aesgcm binds a value to its key: copied under another name it does not decrypt', async () => {
    const { backend, storage } = stored([{ aesgcm: { keys: [{ name: 'k', secret: key32() }] } }]);
    await storage.create('/secrets/default/a', secret('YQ=='));
    const raw = await backend.read('/secrets/default/a');
    await backend.write({ kind: 'create', key: '/secrets/default/b', value: raw?.value ?? '' });
    await expect(storage.get('/secrets/default/b')).rejects.toThrow(
      /unable to transform key "\/secrets\/default\/b": k8s:enc:aesgcm:v1:k/,
    );
  });

  it('with identity first, writes plain JSON but still reads what a key encrypted (decryption roll-back)', async () => {
    const k = { name: 'k', secret: key32() };
    const backend = new MemoryBackend();
    await new GenericStorage(backend, { encryption: parse(config([{ secretbox: { keys: [k] } }])) }).create(
      '/secrets/default/s',
      secret('YQ=='),
    );
    const rollback = new GenericStorage(backend, {
      encryption: parse(config([{ identity: {} }, { secretbox: { keys: [k] } }])),
    });
    const s = await rollback.get('/secrets/default/s');
    await rollback.guaranteedUpdate('/secrets/default/s', () => s);
    expect(JSON.parse((await backend.read('/secrets/default/s'))?.value ?? '')).toMatchObject({
      data: { v: 'YQ==' },
    });
  });
});

describe('--encryption-provider-config validation', () => {
  it.each<[string, unknown, string]>([
    [
      'wrong key length',
      config([{ aescbc: { keys: [{ name: 'k', secret: Buffer.alloc(5).toString('base64') }] } }]),
      'resources[0].providers[0].aescbc.keys[0].secret: secret is not of the expected length, got 5, expected one of [16 24 32]',
    ],
    [
      'secretbox wants 32 bytes',
      config([{ secretbox: { keys: [{ name: 'k', secret: Buffer.alloc(16).toString('base64') }] } }]),
      'resources[0].providers[0].secretbox.keys[0].secret: secret is not of the expected length, got 16, expected one of [32]',
    ],
    [
      'not base64',
      config([{ aesgcm: { keys: [{ name: 'k', secret: 'not base64!' }] } }]),
      'resources[0].providers[0].aesgcm.keys[0].secret: must be base64',
    ],
    [
      'two types in one provider',
      config([{ aescbc: { keys: [{ name: 'k', secret: key32() }] }, identity: {} }]),
      'resources[0].providers[0]: exactly one provider type must be set, got aescbc, identity',
    ],
    [
      'kms',
      config([{ kms: { name: 'vault', endpoint: 'unix:///kms.sock' } }]),
      'resources[0].providers[0].kms: KMS providers are not supported by Keel; use aescbc, aesgcm or secretbox',
    ],
    [
      'duplicate key names',
      config([
        {
          aescbc: {
            keys: [
              { name: 'k', secret: key32() },
              { name: 'k', secret: key32() },
            ],
          },
        },
      ]),
      'resources[0].providers[0].aescbc.keys[1].name: duplicate key name "k"',
    ],
    ['no providers', config([]), 'resources[0].providers: expected at least one provider'],
    [
      'a bad resource name',
      config([{ identity: {} }], ['Secrets']),
      'resources[0].resources[0]: not a resource, *.group or *.*: "Secrets"',
    ],
    [
      'the wrong kind',
      { ...config([{ identity: {} }]), kind: 'Encryption' },
      'kind: expected one of EncryptionConfiguration, got string "Encryption"',
    ],
  ])('%s', (_name, doc, problem) => {
    expect(() => parse(doc)).toThrow(`encryption provider config file /e.yaml: ${problem}`);
  });

  it('matches resources by resource.group, *.group, *. and *.*', () => {
    const groups: Record<string, string> = {
      secrets: '',
      leases: 'coordination.k8s.io',
      roles: 'rbac.authorization.k8s.io',
    };
    const doc = {
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        {
          resources: ['leases.coordination.k8s.io'],
          providers: [{ aescbc: { keys: [{ name: 'a', secret: key32() }] } }],
        },
        { resources: ['*.'], providers: [{ aesgcm: { keys: [{ name: 'b', secret: key32() }] } }] },
        {
          resources: ['*.rbac.authorization.k8s.io'],
          providers: [{ secretbox: { keys: [{ name: 'c', secret: key32() }] } }],
        },
      ],
    };
    const c = parse(doc).withGroups((r) => groups[r]);
    const prefixOf = (key: string) => c.transformerFor(key)?.seal('{}', key).split(':').slice(0, 3).join(':');
    expect(prefixOf('/leases/ns/x')).toBe('k8s:enc:aescbc');
    expect(prefixOf('/secrets/ns/x')).toBe('k8s:enc:aesgcm');
    expect(prefixOf('/roles/ns/x')).toBe('k8s:enc:secretbox');
    expect(c.transformerFor('/unknown/x')).toBeUndefined();
  });
});
