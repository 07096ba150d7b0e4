import { AdmissionChain } from '../chain.js';
import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const chain = chainOf(['AlwaysPullImages'], depsOf({}));
const c = (name: string, image: string, imagePullPolicy = 'IfNotPresent') => ({
  name,
  image,
  imagePullPolicy,
});
const policies = (pod: { spec: Record<string, unknown> }) =>
  ['initContainers', 'containers', 'ephemeralContainers'].flatMap((f) =>
    ((pod.spec[f] ?? []) as { imagePullPolicy?: string }[]).map((x) => x.imagePullPolicy),
  );

describe('AlwaysPullImages', () => {
  it('sets Always on every container of a new pod', async () => {
    const pod = podOf('p', {
      initContainers: [c('init', 'a:1', 'Never')],
      containers: [c('app', 'b:1'), c('side', 'c:1')],
    });
    expect(await refusalOf(chain, writeOf('CREATE', 'pods', pod))).toBeUndefined();
    expect(policies(pod)).toEqual(['Always', 'Always', 'Always']);
  });

  it('sets Always on an update that brings a new image, ephemeral containers included', async () => {
    const old = podOf('p', { containers: [c('app', 'b:1')] });
    const pod = podOf('p', { containers: [c('app', 'b:2')], ephemeralContainers: [c('debug', 'busybox')] });
    await chain.admit(writeOf('UPDATE', 'pods', pod, { oldObject: old }));
    expect(policies(pod)).toEqual(['Always', 'Always']);
  });

  it('leaves an update without new images alone', async () => {
    const old = podOf('p', { containers: [c('app', 'b:1'), c('side', 'c:1')] });
    const pod = podOf('p', { containers: [c('app', 'b:1')] });
    expect(await refusalOf(chain, writeOf('UPDATE', 'pods', pod, { oldObject: old }))).toBeUndefined();
    expect(policies(pod)).toEqual(['IfNotPresent']);
  });

  it('refuses, in the validating phase, a container whose policy a later step changed', async () => {
    const plugin = chain.plugins[0];
    if (!plugin) throw new Error('no plugin');
    const undo = {
      name: 'Undo',
      handles: () => true,
      admit: (a: { object: unknown }) => {
        (
          (a.object as { spec: { containers: { imagePullPolicy: string }[] } }).spec.containers[0] ?? {
            imagePullPolicy: '',
          }
        ).imagePullPolicy = 'Never';
      },
    };
    const both = new AdmissionChain([plugin, undo]);
    expect(await refusalOf(both, writeOf('CREATE', 'pods', podOf('p')))).toEqual({
      code: 403,
      reason: 'Forbidden',
      message:
        'pods "p" is forbidden: spec.containers[0].imagePullPolicy: Unsupported value: "Never": supported values: "Always"',
    });
  });
});
