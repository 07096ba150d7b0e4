import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod } from '../../framework/testing/fixtures.js';
import { runFilter } from '../../framework/testing/run-plugin.js';
import type { ContainerPort } from '../../framework/types.js';
import { NodePorts } from './node-ports.js';

const rejected = {
  code: 'Unschedulable',
  reasons: ["node(s) didn't have free ports for the requested pod ports"],
};
const existing = makePod('old', {
  hostPorts: [{ hostPort: 8080 }, { hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }],
});

describe('NodePorts.filter', () => {
  it.each<[string, ContainerPort[], unknown]>([
    ['no host ports', [{ containerPort: 80 }], undefined],
    ['a free port', [{ hostPort: 9090 }], undefined],
    ['the same port', [{ hostPort: 8080 }], rejected],
    ['the same port on a specific IP', [{ hostPort: 8080, hostIP: '10.0.0.2' }], rejected],
    ['the same port, other protocol', [{ hostPort: 8080, protocol: 'UDP' }], undefined],
    [
      'another IP for a port bound to one IP',
      [{ hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.2' }],
      undefined,
    ],
    ['all IPs for a port bound to one IP', [{ hostPort: 53, protocol: 'UDP' }], rejected],
    ['one of several ports taken', [{ hostPort: 1 }, { hostPort: 8080 }], rejected],
  ])('%s', (_name, hostPorts, want) => {
    const info = makeNodeInfo(makeNode('n'), existing);
    expect(runFilter(new NodePorts(), makePod('p', { hostPorts }), info)).toEqual(want);
  });
});
