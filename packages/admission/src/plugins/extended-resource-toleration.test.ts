import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const chain = chainOf(['ExtendedResourceToleration'], depsOf({}));
const requesting = (name: string, requests: Record<string, string>) => ({
  name,
  image: 'a:1',
  resources: { requests },
});

describe('ExtendedResourceToleration', () => {
  it('tolerates the NoSchedule taint of each extended resource requested, sorted, once', async () => {
    const pod = podOf('p', {
      initContainers: [requesting('init', { 'example.com/fpga': '1' })],
      containers: [
        requesting('a', { cpu: '1', 'example.com/gpu': '2' }),
        requesting('b', { 'example.com/gpu': '1', 'hugepages-2Mi': '1Mi' }),
      ],
      tolerations: [{ key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect(await refusalOf(chain, writeOf('CREATE', 'pods', pod))).toBeUndefined();
    expect(pod.spec['tolerations']).toEqual([
      { key: 'example.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/fpga', operator: 'Exists', effect: 'NoSchedule' },
    ]);
  });

  it('adds nothing for native resources, also on update', async () => {
    const pod = podOf('p', {
      containers: [requesting('a', { cpu: '1', memory: '1Gi', 'kubernetes.io/foo': '1' })],
    });
    await chain.admit(writeOf('UPDATE', 'pods', pod, { oldObject: podOf('p') }));
    expect(pod.spec['tolerations']).toBeUndefined();
  });
});
