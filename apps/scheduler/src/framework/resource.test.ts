import { describe, expect, it } from 'vitest';
import { addResource, emptyResource, nodeAllocatable, podNonZeroRequests, podRequests } from './resource.js';
import { makeNode, makePod } from './testing/fixtures.js';
import type { Container } from './types.js';

const c = (requests: Record<string, string>, extra: Partial<Container> = {}): Container => ({
  name: 'c',
  resources: { requests },
  ...extra,
});

describe('podRequests', () => {
  it.each([
    ['no containers requesting anything', { containers: [{ name: 'a' }] }, 0, 0],
    ['one container', { requests: { cpu: '500m', memory: '1Gi' } }, 500, 1024 ** 3],
    [
      'containers add up',
      { containers: [c({ cpu: '100m' }), c({ cpu: '250m', memory: '1Mi' })] },
      350,
      1024 ** 2,
    ],
    [
      'an init container bigger than the containers wins',
      { containers: [c({ cpu: '100m' })], initContainers: [c({ cpu: '1', memory: '10Mi' })] },
      1000,
      10 * 1024 ** 2,
    ],
    [
      'an init container smaller than the containers does not count',
      { containers: [c({ cpu: '2' })], initContainers: [c({ cpu: '1' })] },
      2000,
      0,
    ],
    [
      'a sidecar adds to the containers',
      { containers: [c({ cpu: '1' })], initContainers: [c({ cpu: '500m' }, { restartPolicy: 'Always' })] },
      1500,
      0,
    ],
    [
      'an init container after a sidecar runs next to it',
      {
        containers: [c({ cpu: '100m' })],
        initContainers: [c({ cpu: '500m' }, { restartPolicy: 'Always' }), c({ cpu: '1' })],
      },
      1500,
      0,
    ],
    [
      'overhead is added',
      { requests: { cpu: '1' }, overhead: { cpu: '250m', memory: '120Mi' } },
      1250,
      120 * 1024 ** 2,
    ],
    [
      'a limit without a request requests the limit',
      {
        containers: [
          { name: 'a', resources: { limits: { cpu: '2', memory: '1Gi' }, requests: { cpu: '1' } } },
        ],
      },
      1000,
      1024 ** 3,
    ],
    ['a malformed quantity counts as nothing', { requests: { cpu: 'lots', memory: '1Ki' } }, 0, 1024],
  ])('%s', (_name, opts, cpu, memory) => {
    const r = podRequests(makePod('p', opts));
    expect(r.milliCPU).toBe(cpu);
    expect(r.memory).toBe(memory);
    expect(r.pods).toBe(0);
  });

  it('keeps extended resources and ephemeral storage apart', () => {
    const r = podRequests(
      makePod('p', { requests: { 'nvidia.com/gpu': '2', 'ephemeral-storage': '1Gi', 'hugepages-2Mi': '0' } }),
    );
    expect(r.ephemeralStorage).toBe(1024 ** 3);
    expect([...r.scalar]).toEqual([['nvidia.com/gpu', 2]]);
  });
});

describe('podNonZeroRequests', () => {
  it.each([
    ['no requests', { containers: [{ name: 'a' }] }, 100, 200 * 1024 ** 2],
    ['two containers without requests', { containers: [{ name: 'a' }, { name: 'b' }] }, 200, 400 * 1024 ** 2],
    ['cpu only', { requests: { cpu: '1' } }, 1000, 200 * 1024 ** 2],
    ['explicit zero stays zero', { requests: { cpu: '0', memory: '0' } }, 0, 0],
    ['both set', { requests: { cpu: '300m', memory: '1Gi' } }, 300, 1024 ** 3],
  ])('%s', (_name, opts, cpu, memory) => {
    expect(podNonZeroRequests(makePod('p', opts))).toEqual({ milliCPU: cpu, memory });
  });
});

describe('nodeAllocatable', () => {
  it('reads cpu, memory, pods and extended resources', () => {
    const r = nodeAllocatable(
      makeNode('n', { cpu: '3500m', memory: '2Gi', pods: '20', allocatable: { 'example.com/foo': '5' } }),
    );
    expect(r).toMatchObject({ milliCPU: 3500, memory: 2 * 1024 ** 3, pods: 20 });
    expect(r.scalar.get('example.com/foo')).toBe(5);
  });

  it('is empty without status.allocatable', () => {
    expect(nodeAllocatable({ metadata: { name: 'n' } })).toEqual(emptyResource());
  });
});

describe('addResource', () => {
  it('adds and subtracts, dropping scalars that reach zero', () => {
    const total = emptyResource();
    const r = { milliCPU: 100, memory: 10, ephemeralStorage: 1, pods: 1, scalar: new Map([['x/y', 2]]) };
    addResource(total, r);
    addResource(total, r);
    expect(total).toMatchObject({ milliCPU: 200, memory: 20, ephemeralStorage: 2, pods: 2 });
    expect(total.scalar.get('x/y')).toBe(4);
    addResource(total, r, -1);
    addResource(total, r, -1);
    expect(total).toEqual(emptyResource());
  });
});
