import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, AdmissionChain, Operation } from '../index.js';
import { ADMISSION_PLUGINS } from '../index.js';
import { AdmissionChain as Chain } from '../chain.js';
import { indexOf } from '../testing/index.js';
import { serviceAccount } from './service-account.js';

type Json = Record<string, unknown>;

const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };

function sa(name: string, more: Json = {}): StoredObject {
  return { metadata: { name, namespace: 'ns' }, ...more };
}

function chainWith(accounts: StoredObject[], stored: StoredObject[] = []): AdmissionChain {
  return new Chain([
    serviceAccount({
      serviceAccounts: indexOf(accounts),
      readServiceAccount: (ns, name) =>
        Promise.resolve(stored.find((s) => s.metadata.namespace === ns && s.metadata.name === name)),
      retryDelayMs: 1,
      random: (n) => 'x'.repeat(n),
    }),
  ]);
}

function podAttrs(pod: Json, operation: Operation = 'CREATE'): AdmissionAttributes {
  const metadata = { name: 'p', namespace: 'ns', ...((pod['metadata'] as Json | undefined) ?? {}) };
  return {
    operation,
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    name: 'p',
    object: { ...pod, metadata },
    oldObject: undefined,
    user: admin,
    dryRun: false,
  };
}

async function admitted(chain: AdmissionChain, pod: Json): Promise<Json> {
  const a = podAttrs(pod);
  await chain.admit(a);
  await chain.validate(a);
  return (a.object as unknown as Json)['spec'] as Json;
}

async function refusal(
  chain: AdmissionChain,
  pod: Json,
): Promise<{ code: number; message: string } | undefined> {
  try {
    await admitted(chain, pod);
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code ?? 0, message: s.message ?? '' };
  }
}

const VOLUME = {
  name: 'kube-api-access-xxxxx',
  projected: {
    sources: [
      { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
      { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      {
        downwardAPI: {
          items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
        },
      },
    ],
    defaultMode: 420,
  },
};
const MOUNT = {
  name: 'kube-api-access-xxxxx',
  readOnly: true,
  mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
};

describe('ServiceAccount', () => {
  it('is registered under its --enable-admission-plugins name', () => {
    expect(ADMISSION_PLUGINS.has('ServiceAccount')).toBe(true);
  });

  it('runs the pod as default, mounting the token into every init container and container', async () => {
    const spec = await admitted(chainWith([sa('default')]), {
      spec: {
        initContainers: [{ name: 'i' }],
        containers: [{ name: 'a' }, { name: 'b', volumeMounts: [{ name: 'v', mountPath: '/v' }] }],
        volumes: [{ name: 'v', emptyDir: {} }],
      },
    });
    expect(spec).toEqual({
      serviceAccountName: 'default',
      serviceAccount: 'default',
      initContainers: [{ name: 'i', volumeMounts: [MOUNT] }],
      containers: [
        { name: 'a', volumeMounts: [MOUNT] },
        { name: 'b', volumeMounts: [{ name: 'v', mountPath: '/v' }, MOUNT] },
      ],
      volumes: [{ name: 'v', emptyDir: {} }, VOLUME],
    });
  });

  it('leaves containers that mount something at the token path, and adds no volume if none takes it', async () => {
    const own = { name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' };
    const spec = await admitted(chainWith([sa('default')]), {
      spec: { containers: [{ name: 'a', volumeMounts: [own] }] },
    });
    expect(spec['containers']).toEqual([{ name: 'a', volumeMounts: [own] }]);
    expect(spec['volumes']).toBeUndefined();
  });

  it('reuses a kube-api-access volume the pod already has', async () => {
    const spec = await admitted(chainWith([sa('default')]), {
      spec: {
        containers: [{ name: 'a' }],
        volumes: [{ name: 'kube-api-access-abcde', projected: { sources: [] } }],
      },
    });
    expect(spec['containers']).toEqual([
      { name: 'a', volumeMounts: [{ ...MOUNT, name: 'kube-api-access-abcde' }] },
    ]);
    expect(spec['volumes']).toEqual([{ name: 'kube-api-access-abcde', projected: { sources: [] } }]);
  });

  it.each<[string, Json, Json, boolean]>([
    ['the account opts out', { automountServiceAccountToken: false }, {}, false],
    ['the pod opts out', {}, { automountServiceAccountToken: false }, false],
    [
      'the pod opts in over the account',
      { automountServiceAccountToken: false },
      { automountServiceAccountToken: true },
      true,
    ],
  ])('mounts the token only as asked: %s', async (_name, account, pod, mounted) => {
    const spec = await admitted(chainWith([sa('default', account)]), {
      spec: { containers: [{ name: 'a' }], ...pod },
    });
    expect(spec['volumes'] !== undefined).toBe(mounted);
  });

  it('copies the account’s pull secrets to a pod that has none, and only then', async () => {
    const chain = chainWith([sa('builder', { imagePullSecrets: [{ name: 'reg' }] })]);
    const copied = await admitted(chain, {
      spec: { serviceAccountName: 'builder', automountServiceAccountToken: false },
    });
    expect(copied['imagePullSecrets']).toEqual([{ name: 'reg' }]);
    const own = await admitted(chain, {
      spec: {
        serviceAccountName: 'builder',
        automountServiceAccountToken: false,
        imagePullSecrets: [{ name: 'mine' }],
      },
    });
    expect(own['imagePullSecrets']).toEqual([{ name: 'mine' }]);
  });

  it('finds an account in the store that the watched copy lacks', async () => {
    const spec = await admitted(chainWith([], [sa('default')]), { spec: { containers: [] } });
    expect(spec['serviceAccountName']).toBe('default');
  });

  it('refuses a pod whose account does not exist', async () => {
    expect(await refusal(chainWith([sa('default')]), { spec: { serviceAccountName: 'ghost' } })).toEqual({
      code: 403,
      message:
        'pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found',
    });
    expect(await refusal(chainWith([]), { spec: {} })).toEqual({
      code: 403,
      message:
        'pods "p" is forbidden: error looking up service account ns/default: serviceaccount "default" not found',
    });
  });

  describe('kubernetes.io/enforce-mountable-secrets', () => {
    const strict = sa('default', {
      metadata: {
        name: 'default',
        namespace: 'ns',
        annotations: { 'kubernetes.io/enforce-mountable-secrets': 'true' },
      },
      secrets: [{ name: 'ok' }],
      imagePullSecrets: [{ name: 'pull' }],
      automountServiceAccountToken: false,
    });
    const env = (name: string) => [{ name: 'E', valueFrom: { secretKeyRef: { name, key: 'k' } } }];

    it('admits the secrets the account lists', async () => {
      await admitted(chainWith([strict]), {
        spec: {
          containers: [{ name: 'a', env: env('ok') }],
          volumes: [{ name: 's', secret: { secretName: 'ok' } }],
          imagePullSecrets: [{ name: 'pull' }],
        },
      });
    });

    it.each<[string, Json, string]>([
      [
        'a secret volume',
        { volumes: [{ name: 's', secret: { secretName: 'no' } }] },
        'volume with secret.secretName="no" is not allowed because service account default does not reference that secret',
      ],
      [
        'an init container’s env',
        { initContainers: [{ name: 'i', env: env('no') }] },
        'init container i with envVar E referencing secret.secretName="no" is not allowed because service account default does not reference that secret',
      ],
      [
        'a container’s env',
        { containers: [{ name: 'a', env: env('no') }] },
        'container a with envVar E referencing secret.secretName="no" is not allowed because service account default does not reference that secret',
      ],
      [
        'a pull secret',
        { imagePullSecrets: [{ name: 'pull' }, { name: 'no' }] },
        'imagePullSecrets[1].name="no" is not allowed because service account default does not reference that imagePullSecret',
      ],
    ])('refuses %s it does not list', async (_name, spec, why) => {
      expect(await refusal(chainWith([strict]), { spec })).toEqual({
        code: 403,
        message: `pods "p" is forbidden: ${why}`,
      });
    });
  });

  describe('mirror pods', () => {
    const mirror = { annotations: { 'kubernetes.io/config.mirror': 'abc' } };

    it('are left as they are', async () => {
      const spec = await admitted(chainWith([]), { metadata: mirror, spec: { containers: [{ name: 'a' }] } });
      expect(spec).toEqual({ containers: [{ name: 'a' }] });
    });

    it.each<[string, Json, string]>([
      ['an account', { serviceAccountName: 'default' }, 'a mirror pod may not reference service accounts'],
      [
        'a secret',
        { containers: [{ name: 'a', envFrom: [{ secretRef: { name: 's' } }] }] },
        'a mirror pod may not reference secrets',
      ],
      [
        'a token projection',
        { volumes: [{ name: 't', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } }] },
        'a mirror pod may not use ServiceAccountToken volume projections',
      ],
    ])('may not reference %s', async (_name, spec, why) => {
      expect(await refusal(chainWith([sa('default')]), { metadata: mirror, spec })).toEqual({
        code: 403,
        message: `pods "p" is forbidden: ${why}`,
      });
    });
  });

  it('acts on pod creation only', async () => {
    const chain = chainWith([]);
    const update = podAttrs({ spec: {} }, 'UPDATE');
    expect(chain.handles('UPDATE')).toBe(false);
    const status = { ...podAttrs({ spec: {} }), subresource: 'status' };
    await chain.admit(status);
    expect((status.object as unknown as Json)['spec']).toEqual({});
    expect(update.operation).toBe('UPDATE');
  });
});
