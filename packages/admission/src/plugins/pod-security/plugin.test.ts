import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes, Operation } from '../../index.js';
import { chainOf, depsOf } from '../../testing/index.js';

type Json = Record<string, unknown>;

const ns = (name: string, labels: Record<string, string> = {}): StoredObject => ({
  metadata: { name, labels },
});
const podObj = (name: string, spec: Json, metadata: Json = {}): StoredObject =>
  ({ metadata: { name, namespace: 'team', ...metadata }, spec }) as StoredObject;

const privilegedPod = podObj('x', {
  containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }],
});
const plainPod = podObj('p', { containers: [{ name: 'c', image: 'i' }] });
const restrictedPod = podObj('r', {
  securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
  containers: [
    {
      name: 'c',
      image: 'i',
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    },
  ],
});

interface Seen {
  warnings: string[];
  annotations: Record<string, string>;
}

function attrsFor(
  resource: 'pods' | 'namespaces',
  operation: Operation,
  object: StoredObject | undefined,
  seen: Seen,
  over: Partial<AdmissionAttributes> = {},
): AdmissionAttributes {
  return {
    operation,
    resource: { group: '', version: 'v1', resource },
    subresource: '',
    kind: { group: '', version: 'v1', kind: resource === 'pods' ? 'Pod' : 'Namespace' },
    namespace: resource === 'pods' ? 'team' : '',
    name: object?.metadata.name ?? '',
    object,
    oldObject: undefined,
    user: { name: 'alice', uid: '', groups: [], extra: {} },
    dryRun: false,
    addWarning: (w) => seen.warnings.push(w),
    addAnnotation: (k, v) => (seen.annotations[k] = v),
    ...over,
  };
}

async function run(
  chain: ReturnType<typeof chainOf>,
  a: AdmissionAttributes,
): Promise<{ code: number; reason: string; message: string } | undefined> {
  try {
    await chain.validate(a);
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return { code: s.code ?? 0, reason: s.reason ?? '', message: s.message ?? '' };
  }
}

const fresh = (): Seen => ({ warnings: [], annotations: {} });

describe('PodSecurity on pods', () => {
  it('enforce=restricted refuses a privileged pod with every violation, in kube order', async () => {
    const chain = chainOf(
      ['PodSecurity'],
      depsOf({ namespaces: [ns('team', { 'pod-security.kubernetes.io/enforce': 'restricted' })] }),
    );
    const seen = fresh();
    expect(await run(chain, attrsFor('pods', 'CREATE', privilegedPod, seen))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    });
    expect(seen.annotations['pod-security.kubernetes.io/enforce-policy']).toBe('restricted:latest');
    expect(seen.warnings).toEqual([]);
    expect(await run(chain, attrsFor('pods', 'CREATE', restrictedPod, fresh()))).toBeUndefined();
  });

  it('an unlabelled namespace is privileged by default: anything goes', async () => {
    const chain = chainOf(['PodSecurity'], depsOf({ namespaces: [ns('team')] }));
    const seen = fresh();
    expect(await run(chain, attrsFor('pods', 'CREATE', privilegedPod, seen))).toBeUndefined();
    expect(seen.annotations).toEqual({ 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
  });

  it('warn and audit labels warn the client and annotate the audit event, but admit', async () => {
    const chain = chainOf(
      ['PodSecurity'],
      depsOf({
        namespaces: [
          ns('team', {
            'pod-security.kubernetes.io/warn': 'baseline',
            'pod-security.kubernetes.io/warn-version': 'v1.29',
            'pod-security.kubernetes.io/audit': 'restricted',
          }),
        ],
      }),
    );
    const seen = fresh();
    expect(await run(chain, attrsFor('pods', 'CREATE', privilegedPod, seen))).toBeUndefined();
    expect(seen.warnings).toEqual([
      'would violate PodSecurity "baseline:v1.29": privileged (container "c" must not set securityContext.privileged=true)',
    ]);
    expect(seen.annotations['pod-security.kubernetes.io/audit-violations']).toMatch(
      /^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext\.privileged=true\), allowPrivilegeEscalation != false/,
    );
    expect(seen.annotations['pod-security.kubernetes.io/enforce-policy']).toBe('privileged:latest');
  });

  it('a bad label enforces restricted and records the parse error', async () => {
    const chain = chainOf(
      ['PodSecurity'],
      depsOf({ namespaces: [ns('team', { 'pod-security.kubernetes.io/enforce': 'strict' })] }),
    );
    const seen = fresh();
    expect((await run(chain, attrsFor('pods', 'CREATE', plainPod, seen)))?.message).toMatch(
      /^pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/,
    );
    expect(seen.annotations['pod-security.kubernetes.io/error']).toBe(
      'Failed to parse policy: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted',
    );
  });

  it('ignores status updates and updates that change nothing the policy reads', async () => {
    const chain = chainOf(
      ['PodSecurity'],
      depsOf({ namespaces: [ns('team', { 'pod-security.kubernetes.io/enforce': 'baseline' })] }),
    );
    expect(
      await run(chain, attrsFor('pods', 'UPDATE', privilegedPod, fresh(), { subresource: 'status' })),
    ).toBeUndefined();
    const relabelled = podObj('x', privilegedPod['spec' as keyof StoredObject] as unknown as Json, {
      labels: { a: 'b' },
    });
    expect(
      await run(chain, attrsFor('pods', 'UPDATE', relabelled, fresh(), { oldObject: privilegedPod })),
    ).toBeUndefined();
    const newImage = podObj('x', {
      containers: [{ name: 'c', image: 'other', securityContext: { privileged: true } }],
    });
    expect(
      (await run(chain, attrsFor('pods', 'UPDATE', newImage, fresh(), { oldObject: privilegedPod })))?.code,
    ).toBe(403);
  });

  it('checks an ephemeral container added through the ephemeralcontainers subresource', async () => {
    const chain = chainOf(
      ['PodSecurity'],
      depsOf({ namespaces: [ns('team', { 'pod-security.kubernetes.io/enforce': 'baseline' })] }),
    );
    const withDebug = podObj('p', {
      containers: [{ name: 'c', image: 'i' }],
      ephemeralContainers: [{ name: 'dbg', image: 'busybox', securityContext: { privileged: true } }],
    });
    const r = await run(
      chain,
      attrsFor('pods', 'UPDATE', withDebug, fresh(), {
        subresource: 'ephemeralcontainers',
        oldObject: plainPod,
      }),
    );
    expect(r?.message).toBe(
      'pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "dbg" must not set securityContext.privileged=true)',
    );
  });

  it('exempts namespaces, users and runtime classes from the configuration file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'podsec-'));
    const file = join(dir, 'admission.yaml');
    writeFileSync(
      file,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults: {enforce: baseline, enforce-version: latest}
    exemptions: {usernames: [ops], namespaces: [kube-system], runtimeClasses: [kata]}
`,
    );
    const chain = chainOf(['PodSecurity'], depsOf({ namespaces: [ns('team'), ns('kube-system')] }), {
      configFile: file,
    });
    expect((await run(chain, attrsFor('pods', 'CREATE', privilegedPod, fresh())))?.code).toBe(403);
    const seen = fresh();
    expect(
      await run(chain, attrsFor('pods', 'CREATE', privilegedPod, seen, { namespace: 'kube-system' })),
    ).toBeUndefined();
    expect(seen.annotations).toEqual({ 'pod-security.kubernetes.io/exempt': 'namespace' });
    const ops = { name: 'ops', uid: '', groups: [], extra: {} };
    expect(
      await run(chain, attrsFor('pods', 'CREATE', privilegedPod, fresh(), { user: ops })),
    ).toBeUndefined();
    const kata = podObj('k', {
      runtimeClassName: 'kata',
      containers: [{ name: 'c', image: 'i', securityContext: { privileged: true } }],
    });
    expect(await run(chain, attrsFor('pods', 'CREATE', kata, fresh()))).toBeUndefined();
  });

  it('refuses a bad configuration at start-up with the file and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'podsec-'));
    const file = join(dir, 'admission.yaml');
    writeFileSync(
      file,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults: {enforce: strict, warn-version: "1.25"}
    exemptions: {namespaces: [Bad_NS, ok, ok]}
`,
    );
    expect(() => chainOf(['PodSecurity'], depsOf({}), { configFile: file })).toThrow(
      `admission control config file ${file}: plugins[0].configuration: defaults.enforce: must be one of privileged, baseline, restricted; defaults.warn-version: must be "latest" or "v1.x"; exemptions.namespaces[0]: a lowercase RFC 1123 label`,
    );
  });
});

describe('PodSecurity on namespaces', () => {
  it('refuses a bad level or version label on create with the real 422', async () => {
    const chain = chainOf(['PodSecurity'], depsOf({}));
    const bad = ns('team', {
      'pod-security.kubernetes.io/enforce': 'strict',
      'pod-security.kubernetes.io/warn-version': 'v2',
    });
    expect(await run(chain, attrsFor('namespaces', 'CREATE', bad, fresh()))).toEqual({
      code: 422,
      reason: 'Invalid',
      message:
        'Namespace "team" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v2": must be "latest" or "v1.x"]',
    });
    expect(
      await run(
        chain,
        attrsFor(
          'namespaces',
          'CREATE',
          ns('team', { 'pod-security.kubernetes.io/enforce': 'baseline' }),
          fresh(),
        ),
      ),
    ).toBeUndefined();
  });

  it('lets an update keep labels that were already bad, but not introduce them', async () => {
    const chain = chainOf(['PodSecurity'], depsOf({}));
    const bad = ns('team', { 'pod-security.kubernetes.io/audit': 'nope' });
    expect(
      await run(chain, attrsFor('namespaces', 'UPDATE', bad, fresh(), { oldObject: bad })),
    ).toBeUndefined();
    expect(
      (await run(chain, attrsFor('namespaces', 'UPDATE', bad, fresh(), { oldObject: ns('team') })))?.code,
    ).toBe(422);
  });

  it('warns about existing pods a stricter enforce level would refuse, grouped by problem', async () => {
    const pods = [
      podObj('b-priv', privilegedPod['spec' as keyof StoredObject] as unknown as Json),
      podObj('a-priv', privilegedPod['spec' as keyof StoredObject] as unknown as Json),
      podObj('host', { hostNetwork: true, containers: [{ name: 'c', image: 'i' }] }),
      podObj('fine', { containers: [{ name: 'c', image: 'i' }] }),
    ];
    const chain = chainOf(['PodSecurity'], depsOf({ pods }));
    const seen = fresh();
    const to = ns('team', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    expect(
      await run(chain, attrsFor('namespaces', 'UPDATE', to, seen, { oldObject: ns('team') })),
    ).toBeUndefined();
    expect(seen.warnings).toEqual([
      'existing pods in namespace "team" violate the new PodSecurity enforce level "baseline:latest"',
      'a-priv (and 1 other pod): privileged',
      'host: host namespaces',
    ]);
    const relaxed = fresh();
    await run(chain, attrsFor('namespaces', 'UPDATE', ns('team'), relaxed, { oldObject: to }));
    expect(relaxed.warnings).toEqual([]);
  });
});
