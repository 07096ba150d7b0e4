import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const dir = mkdtempSync(join(tmpdir(), 'podnodeselector-'));
let files = 0;

/** An admission configuration file giving PodNodeSelector `configuration`. */
function configFile(configuration: unknown): string {
  const path = join(dir, `admission-${files++}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'AdmissionConfiguration',
      plugins: [{ name: 'PodNodeSelector', configuration }],
    }),
  );
  return path;
}

const ns = (name: string, selector?: string): StoredObject => ({
  metadata: {
    name,
    ...(selector === undefined
      ? {}
      : { annotations: { 'scheduler.alpha.kubernetes.io/node-selector': selector } }),
  },
});

const config = {
  podNodeSelectorPluginConfig: {
    clusterDefaultNodeSelector: 'tier=general',
    restricted: 'env=prod,zone=a',
    'restricted-default': 'env=prod',
  },
};
const namespaces = [
  ns('ns', 'env=dev'),
  ns('plain'),
  ns('empty', ''),
  ns('restricted', ''),
  ns('restricted-default'),
];

const chain = chainOf(['PodNodeSelector'], depsOf({ namespaces }), { configFile: configFile(config) });

async function create(namespace: string, nodeSelector?: Record<string, string>) {
  const pod = podOf('p', nodeSelector ? { nodeSelector } : {});
  const refusal = await refusalOf(chain, writeOf('CREATE', 'pods', pod, { namespace }));
  return { refusal, nodeSelector: pod.spec['nodeSelector'] };
}

describe('PodNodeSelector', () => {
  it("merges the namespace's selector into the pod's", async () => {
    expect(await create('ns', { disk: 'ssd' })).toEqual({
      refusal: undefined,
      nodeSelector: { env: 'dev', disk: 'ssd' },
    });
    expect(await create('ns', { env: 'dev' })).toEqual({ refusal: undefined, nodeSelector: { env: 'dev' } });
  });

  it('uses clusterDefaultNodeSelector without the annotation, and nothing with an empty one', async () => {
    expect((await create('plain')).nodeSelector).toEqual({ tier: 'general' });
    expect(await create('empty')).toEqual({ refusal: undefined, nodeSelector: undefined });
  });

  it('refuses a pod that contradicts its namespace with the real 403', async () => {
    expect((await create('ns', { env: 'prod' })).refusal).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "p" is forbidden: pod node label selector conflicts with its namespace node label selector',
    });
  });

  it("refuses labels outside the namespace's whitelist", async () => {
    expect((await create('restricted', { env: 'prod' })).refusal).toBeUndefined();
    expect((await create('restricted', { env: 'dev' })).refusal).toEqual({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "p" is forbidden: pod node label selector labels conflict with its namespace whitelist',
    });
    // The cluster default merged in counts too.
    expect((await create('restricted-default', { env: 'prod' })).refusal).toMatchObject({ code: 403 });
  });

  it('reads a namespace missing from the copy from the store, and 404s an unknown one', async () => {
    const store = { namespaces: [] as StoredObject[] };
    const deps = depsOf(store);
    const lagging = chainOf(['PodNodeSelector'], {
      ...deps,
      read: () => Promise.resolve(ns('fresh', 'env=new')),
    });
    const pod = podOf('p');
    await lagging.admit(writeOf('CREATE', 'pods', pod, { namespace: 'fresh' }));
    expect(pod.spec['nodeSelector']).toEqual({ env: 'new' });
    expect(
      await refusalOf(
        chainOf(['PodNodeSelector'], deps),
        writeOf('CREATE', 'pods', podOf('p'), { namespace: 'gone' }),
      ),
    ).toMatchObject({
      code: 404,
      message: 'namespaces "gone" not found',
    });
  });

  it('refuses a configuration that is not one, naming the file and field', () => {
    const bad = configFile({ podNodeSelectorPluginConfig: { team: 'env in (a,b)' } });
    expect(() => chainOf(['PodNodeSelector'], depsOf({}), { configFile: bad })).toThrow(
      `admission control config file ${bad}: plugins[0].configuration: podNodeSelectorPluginConfig.team: invalid selector: "env in (a,b)" (only key=value pairs)`,
    );
    const unparsable = configFile({ podNodeSelectorPluginConfig: { team: 'a=b,,' } });
    expect(() => chainOf(['PodNodeSelector'], depsOf({}), { configFile: unparsable })).toThrow(
      /podNodeSelectorPluginConfig\.team: found ',', expected: identifier/,
    );
    const typo = configFile({ podNodeSelectorConfig: {} });
    expect(() => chainOf(['PodNodeSelector'], depsOf({}), { configFile: typo })).toThrow(
      /podNodeSelectorConfig: unknown field/,
    );
    const notString = configFile({ podNodeSelectorPluginConfig: { team: 3 } });
    expect(() => chainOf(['PodNodeSelector'], depsOf({}), { configFile: notString })).toThrow(
      /podNodeSelectorPluginConfig\.team: expected a string, got number 3/,
    );
  });
});
