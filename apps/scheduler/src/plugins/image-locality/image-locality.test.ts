import { describe, expect, it } from 'vitest';
import { labelledNode, makeSnapshot, scoreAll } from '../../framework/testing/cluster.js';
import type { Node, Pod } from '../../framework/types.js';
import { ImageLocality, normalizedImageName } from './image-locality.js';

// Cases mirror kube's imagelocality TestImageLocalityPriority table.

const MB = 1024 * 1024;
const withImages = (name: string, images: [string[], number][]): Node => ({
  ...labelledNode(name, {}),
  status: {
    allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
    images: images.map(([names, mb]) => ({ names, sizeBytes: mb * MB })),
  },
});
const node1 = withImages('node1', [
  [['gcr.io/40:latest', 'gcr.io/40:v1'], 40],
  [['gcr.io/300:latest', 'gcr.io/300:v1'], 300],
  [['gcr.io/2000:latest'], 2000],
]);
const node2 = withImages('node2', [
  [['gcr.io/250:latest'], 250],
  [['gcr.io/10:latest', 'gcr.io/10:v1'], 10],
]);
const podWith = (...images: string[]): Pod => ({
  metadata: { name: 'p', namespace: 'default' },
  spec: { containers: images.map((image, i) => ({ name: `c${i}`, image })) },
});

describe('ImageLocality.score', () => {
  it.each<[string, Pod, Record<string, number> | undefined]>([
    // node1: 40 MB × ½ = 20 MB, under 23 MB; node2: 250 MB × ½ = 125 MB → 100 × 102 / 1977.
    [
      'two images spread on two nodes, prefer the larger image one',
      podWith('gcr.io/40', 'gcr.io/250'),
      { node1: 0, node2: 5 },
    ],
    // node1: (40 + 300) × ½ = 170 MB → 100 × 147 / 1977.
    ['two images on one node, prefer this node', podWith('gcr.io/40', 'gcr.io/300'), { node1: 7, node2: 0 }],
    // node1: 2000 × ½ = 1000 MB → 100 × 977 / 1977; node2: 5 MB.
    ['if exceed limit, use limit', podWith('gcr.io/2000', 'gcr.io/10'), { node1: 49, node2: 0 }],
    // No node has it: every score would be 0, so scoring is skipped.
    ['a tag must match', podWith('gcr.io/300:v2'), undefined],
    // One container: the cap is 1000 MB, and 300 MB × ½ = 150 MB → 100 × 127 / 977.
    ['an explicit tag', podWith('gcr.io/300:v1'), { node1: 12, node2: 0 }],
  ])('%s', (_name, pod, want) => {
    expect(scoreAll(new ImageLocality(), pod, makeSnapshot([node1, node2]))).toEqual(want);
  });

  it('scales by how many nodes have the image', () => {
    const big = (name: string) => withImages(name, [[['app:latest'], 900]]);
    const snapshot = makeSnapshot([big('a'), big('b'), labelledNode('c', {})]);
    // 900 MB × ⅔ = 600 MB → 100 × 577 / 977.
    expect(scoreAll(new ImageLocality(), podWith('app'), snapshot)).toEqual({ a: 59, b: 59, c: 0 });
  });

  it('skips scoring when no node has any of the images', () => {
    expect(scoreAll(new ImageLocality(), podWith('gcr.io/nowhere'), makeSnapshot([node1, node2]))).toBe(
      undefined,
    );
  });

  it('normalizes image names as the runtime does', () => {
    expect(normalizedImageName('nginx')).toBe('nginx:latest');
    expect(normalizedImageName('reg:5000/nginx')).toBe('reg:5000/nginx:latest');
    expect(normalizedImageName('reg:5000/nginx:1.2')).toBe('reg:5000/nginx:1.2');
  });
});
