import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestApiServer } from '@keel/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientConfig } from './support/clients/kubeconfig.js';
import { kubectl } from './support/clients/kubectl.js';
import { create, expectStatus, newNamespace, podBody, podPath, unique, type Json } from './support/core.js';

const NS_PATH = '/api/v1/namespaces';
const privileged = {
  containers: [{ name: 'c', image: 'registry.example/app:1', securityContext: { privileged: true } }],
};

function namespace(name: string, labels: Record<string, string>): Json {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } };
}

/** The audit events the server has logged for `auditID`, waiting until the final stage is there. */
async function auditEvents(log: string, auditID: string): Promise<Json[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const events = existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Json)
          .filter((e) => e['auditID'] === auditID)
      : [];
    if (events.some((e) => e['stage'] === 'ResponseComplete')) return events;
    if (Date.now() > deadline) throw new Error(`no ResponseComplete audit event for ${auditID}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PodSecurity admission (memory store)', () => {
  let server: TestApiServer;
  let auditLog: string;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'keel-podsec-'));
    auditLog = join(dir, 'audit.log');
    const policy = join(dir, 'audit-policy.yaml');
    writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const config = join(dir, 'admission.yaml');
    writeFileSync(
      config,
      `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      warn: baseline
    exemptions:
      namespaces: [exempt-ns]
`,
    );
    server = await TestApiServer.start({
      args: [
        // Privileged pods reach PodSecurity only when the cluster allows them (kubeadm's setting).
        '--allow-privileged=true',
        `--admission-control-config-file=${config}`,
        `--audit-policy-file=${policy}`,
        `--audit-log-path=${auditLog}`,
      ],
    });
    await server.ready();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a namespace labelled enforce=restricted refuses a privileged pod with the real message', async () => {
    const ns = unique('restricted');
    await create(server, NS_PATH, namespace(ns, { 'pod-security.kubernetes.io/enforce': 'restricted' }));
    const res = await server.request('POST', podPath(ns), { body: podBody('x', privileged) });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      details: { name: 'x', kind: 'pods' },
      message:
        'pods "x" is forbidden: violates PodSecurity "restricted:latest": privileged (container "c" must not set securityContext.privileged=true), allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    });
    const ok = podBody('ok', {
      securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      containers: [
        {
          name: 'c',
          image: 'registry.example/app:1',
          securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
        },
      ],
    });
    await create(server, podPath(ns), ok);
  });

  it('a warn label (and the configured default) yields a Warning header but admits the pod', async () => {
    const ns = unique('warned');
    await create(server, NS_PATH, namespace(ns, { 'pod-security.kubernetes.io/warn': 'restricted' }));
    const res = await server.request('POST', podPath(ns), { body: podBody('w', { hostNetwork: true }) });
    expect(res.status).toBe(201);
    expect(String(res.headers['warning'])).toContain(
      '299 - "would violate PodSecurity \\"restricted:latest\\": host namespaces (hostNetwork=true), allowPrivilegeEscalation != false',
    );
    const plain = await newNamespace(server, 'plain');
    const byDefault = await server.request('POST', podPath(plain), { body: podBody('d', privileged) });
    expect(byDefault.status).toBe(201);
    expect(String(byDefault.headers['warning'])).toContain(
      'would violate PodSecurity \\"baseline:latest\\": privileged',
    );
  });

  it('a namespace exempt in the configuration file is not checked', async () => {
    await create(
      server,
      NS_PATH,
      namespace('exempt-ns', { 'pod-security.kubernetes.io/enforce': 'restricted' }),
    );
    const res = await server.request('POST', podPath('exempt-ns'), { body: podBody('x', privileged) });
    expect(res.status).toBe(201);
    expect(res.headers['warning']).toBeUndefined();
  });

  it('refuses a bad level label on a namespace; warns about existing pods when enforce tightens', async () => {
    const bad = await expectStatus(
      server.request('POST', NS_PATH, {
        body: namespace(unique('bad'), { 'pod-security.kubernetes.io/enforce': 'strict' }),
      }),
      422,
    );
    expect(bad['message']).toMatch(
      /^Namespace "bad-[0-9a-f]+" is invalid: metadata\.labels\[pod-security\.kubernetes\.io\/enforce\]: Invalid value: "strict": must be one of privileged, baseline, restricted$/,
    );
    const ns = unique('tighten');
    await create(server, NS_PATH, namespace(ns, {}));
    await create(server, podPath(ns), podBody('priv', privileged));
    const res = await server.request('PATCH', `${NS_PATH}/${ns}`, {
      body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(res.status).toBe(200);
    const warning = String(res.headers['warning']);
    expect(warning).toContain(
      `existing pods in namespace \\"${ns}\\" violate the new PodSecurity enforce level \\"baseline:latest\\"`,
    );
    expect(warning).toContain('priv: privileged');
  });

  it('an audit label records the violations and the enforced policy as audit annotations', async () => {
    const ns = unique('audited');
    await create(server, NS_PATH, namespace(ns, { 'pod-security.kubernetes.io/audit': 'baseline' }));
    const res = await server.request('POST', podPath(ns), { body: podBody('a', { hostPID: true }) });
    expect(res.status).toBe(201);
    const events = await auditEvents(auditLog, String(res.headers['audit-id']));
    const done = events.find((e) => e['stage'] === 'ResponseComplete');
    expect(done?.['annotations']).toMatchObject({
      'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
      'pod-security.kubernetes.io/audit-violations':
        'would violate PodSecurity "baseline:latest": host namespaces (hostPID=true)',
    });
  });

  it('kubectl prints the warning and the refusal as a real server makes it', async () => {
    const cfg = clientConfig(server);
    const warned = unique('kwarn');
    await create(server, NS_PATH, namespace(warned, { 'pod-security.kubernetes.io/warn': 'restricted' }));
    const run = await kubectl(cfg, ['run', 'web', '--image=registry.example/app:1', '-n', warned]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false)',
    );
    const enforced = unique('kenforce');
    await create(server, NS_PATH, namespace(enforced, { 'pod-security.kubernetes.io/enforce': 'baseline' }));
    const refused = await kubectl(cfg, [
      'run',
      'host',
      '--image=registry.example/app:1',
      '-n',
      enforced,
      '--overrides',
      JSON.stringify({ spec: { hostNetwork: true } }),
    ]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'Error from server (Forbidden): pods "host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true)',
    );
  });
});
