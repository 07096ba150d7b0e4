import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'podtolerationrestriction-'));
let files = 0;

function configFile(configuration: unknown): string {
  const path = join(dir, `admission-${files++}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'PodTolerationRestriction', configuration }],
    }),
  );
  return path;
}

const DEFAULTS = 'scheduler.alpha.kubernetes.io/defaultTolerations';
const WHITELIST = 'scheduler.alpha.kubernetes.io/tolerationsWhitelist';
const ns = (name: string, annotations: Record<string, string> = {}): StoredObject => ({
  metadata: { name, annotations },
});
const gpu = { key: 'gpu', operator: 'Exists', effect: 'NoSchedule' };
const dedicated = { key: 'dedicated', operator: 'Equal', value: 'team-a', effect: 'NoSchedule' };

const namespaces = [
  ns('ns', { [DEFAULTS]: JSON.stringify([dedicated]), [WHITELIST]: JSON.stringify([dedicated, gpu]) }),
  ns('plain'),
  ns('open', { [DEFAULTS]: '', [WHITELIST]: '' }),
  ns('broken', { [DEFAULTS]: '[{"key": ' }),
  ns('lenient', { [DEFAULTS]: JSON.stringify([{ ...gpu, note: 'ignored' }]), [WHITELIST]: '' }),
];
const config = {
  apiVersion: 'podtolerationrestriction.admission.k8s.io/v1alpha1',
  kind: 'Configuration',
  default: [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }],
  whitelist: [{ key: 'cluster', operator: 'Exists' }],
};
const chain = chainOf(['PodTolerationRestriction'], depsOf({ namespaces }), {
  configFile: configFile(config),
});

async function write(
  namespace: string,
  spec: Record<string, unknown>,
  operation: 'CREATE' | 'UPDATE' = 'CREATE',
) {
  const pod = podOf('p', spec);
  const refusal = await refusalOf(
    chain,
    writeOf(operation, 'pods', pod, {
      namespace,
      oldObject: operation === 'UPDATE' ? podOf('p') : undefined,
    }),
  );
  return { refusal, tolerations: pod.spec['tolerations'] };
}

describe('PodTolerationRestriction', () => {
  it("adds the namespace's default tolerations on create, and checks them against its whitelist", async () => {
    expect(await write('ns', { tolerations: [gpu] })).toEqual({
      refusal: undefined,
      tolerations: [gpu, dedicated],
    });
  });

  it('falls back to the configured default and whitelist when the namespace has none', async () => {
    expect(await write('plain', {})).toEqual({
      refusal: undefined,
      tolerations: [{ key: 'cluster', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect((await write('plain', { tolerations: [gpu] })).refusal).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "p" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its cluster whitelist',
    });
  });

  it('refuses tolerations outside the namespace whitelist, on create and update', async () => {
    const other = { key: 'other', operator: 'Exists', effect: 'NoSchedule' };
    const namespaceMessage =
      'pods "p" is forbidden: pod tolerations (possibly merged with namespace default tolerations) conflict with its namespace whitelist';
    expect((await write('ns', { tolerations: [other] })).refusal?.message).toBe(namespaceMessage);
    expect((await write('ns', { tolerations: [other] }, 'UPDATE')).refusal?.message).toBe(namespaceMessage);
  });

  it('takes empty annotations as "no defaults" and "anything goes", overriding the configuration', async () => {
    expect(await write('open', { tolerations: [gpu] })).toEqual({ refusal: undefined, tolerations: [gpu] });
  });

  it('adds the memory-pressure toleration to pods that are not BestEffort, and only defaults on create', async () => {
    const burstable = {
      containers: [{ name: 'app', image: 'a:1', resources: { requests: { cpu: '100m' } } }],
    };
    const pressure = { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' };
    expect((await write('open', burstable)).tolerations).toEqual([pressure]);
    expect((await write('open', burstable, 'UPDATE')).tolerations).toEqual([pressure]);
    expect((await write('ns', {}, 'UPDATE')).tolerations).toBeUndefined();
  });

  it('keeps the pod toleration that covers a default one (MergeTolerations)', async () => {
    const all = { operator: 'Exists' };
    expect((await write('open', { tolerations: [all] })).tolerations).toEqual([all]);
    expect(
      (await write('plain', { tolerations: [{ key: 'cluster', operator: 'Exists' }] })).tolerations,
    ).toEqual([{ key: 'cluster', operator: 'Exists' }]);
  });

  it('refuses a pod whose namespace annotation is not a list of tolerations, ignoring unknown fields', async () => {
    expect((await write('broken', {})).refusal).toMatchObject({ code: 403, reason: 'Forbidden' });
    expect(await write('lenient', {})).toEqual({ refusal: undefined, tolerations: [gpu] });
  });

  it('refuses a configuration that is not one, naming the file and field', () => {
    const load = (c: unknown) => () =>
      chainOf(['PodTolerationRestriction'], depsOf({}), { configFile: configFile(c) });
    expect(load({ ...config, kind: 'Config' })).toThrow(
      /plugins\[0\]\.configuration: kind: expected one of Configuration, got string "Config"/,
    );
    expect(load({ ...config, whitelist: [{ key: 'a', operator: 'Sometimes' }] })).toThrow(
      /plugins\[0\]\.configuration: whitelist\[0\]\.operator: Unsupported value: "Sometimes": supported values: "Equal", "Exists"$/,
    );
    expect(load({ ...config, default: [{ Key: 'a' }] })).toThrow(/default\[0\]\.Key: unknown field/);
  });
});
