import { describe, expect, it } from 'vitest';
import { Status } from '../framework/status.js';
import { Diagnosis, fitErrorMessage } from './fit-error.js';

function diagnosis(...nodeReasons: string[][]): Diagnosis {
  const d = new Diagnosis();
  for (const reasons of nodeReasons) d.addNodeStatus(Status.unschedulable(...reasons).withPlugin('P'));
  return d;
}

const times = (n: number, reasons: string[]) => Array.from({ length: n }, () => reasons);

describe('fitErrorMessage', () => {
  it.each([
    [
      "kube's example",
      3,
      diagnosis(
        ['node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }'],
        ['Insufficient cpu'],
        ['Insufficient cpu'],
      ),
      '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu.',
    ],
    [
      'a node with several reasons counts for each',
      2,
      diagnosis(['Too many pods', 'Insufficient cpu'], ['Insufficient cpu', 'Insufficient memory']),
      '0/2 nodes are available: 1 Insufficient memory, 1 Too many pods, 2 Insufficient cpu.',
    ],
    [
      'entries sort as strings, so 12 comes before 3',
      15,
      diagnosis(...times(12, ['Too many pods']), ...times(3, ['Insufficient cpu'])),
      '0/15 nodes are available: 12 Too many pods, 3 Insufficient cpu.',
    ],
    ['no reasons leaves the colon', 4, new Diagnosis(), '0/4 nodes are available:'],
  ])('%s', (_name, n, d, want) => {
    expect(fitErrorMessage(n, d)).toBe(want);
  });

  it('puts a PreFilter message in place of the histogram', () => {
    const d = diagnosis(['Insufficient cpu']);
    d.preFilterMsg = "node(s) didn't satisfy plugin(s) [X]";
    expect(fitErrorMessage(5, d)).toBe("0/5 nodes are available: node(s) didn't satisfy plugin(s) [X].");
  });

  it('collects the rejecting plugins', () => {
    const d = new Diagnosis();
    d.addNodeStatus(Status.unschedulable('a').withPlugin('A'));
    d.addNodeStatus(Status.unschedulable('b').withPlugin('B'));
    d.addNodeStatus(Status.unschedulable('a').withPlugin('A'));
    expect([...d.unschedulablePlugins]).toEqual(['A', 'B']);
    expect(d.failedNodes).toBe(3);
  });
});
