import { describe, expect, it } from 'vitest';
import { Status } from '../framework/status.js';
import { Diagnosis, FitError, fitErrorMessage } from './fit-error.js';

function diagnosis(...nodeReasons: string[][]): Diagnosis {
  const d = new Diagnosis();
  nodeReasons.forEach((reasons, i) =>
    d.addNodeStatus(`n${i}`, Status.unschedulable(...reasons).withPlugin('P')),
  );
  return d;
}

const makePodStub = () => ({ metadata: { name: 'p', namespace: 'default' }, spec: { containers: [] } });

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

  it('appends the PostFilter message after its own period, as kube does', () => {
    const d = diagnosis(['Insufficient cpu'], ['Insufficient cpu']);
    d.postFilterMsg = 'preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    expect(fitErrorMessage(2, d)).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod..',
    );
  });

  it("FitError's text() adds the PostFilter message set after the cycle to the same reasons", () => {
    const d = diagnosis(['Insufficient cpu'], ['Insufficient cpu']);
    const err = new FitError(makePodStub(), 2, d);
    expect(err.message).toBe('0/2 nodes are available: 2 Insufficient cpu.');
    expect(err.text()).toBe(err.message);
    d.postFilterMsg = 'preemption: not eligible due to preemptionPolicy=Never.';
    expect(err.text()).toBe(fitErrorMessage(2, d));
    expect(err.text()).toBe(
      '0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never..',
    );
  });

  it('counts nodes missing from the map under the absent status', () => {
    const d = diagnosis(['Insufficient cpu']);
    d.nodeToStatus.setAbsentNodesStatus(Status.unresolvable('Preemption is not helpful for scheduling'));
    expect(fitErrorMessage(3, d)).toBe(
      '0/3 nodes are available: 1 Insufficient cpu, 2 Preemption is not helpful for scheduling.',
    );
  });

  it('collects the rejecting plugins', () => {
    const d = new Diagnosis();
    d.addNodeStatus('n1', Status.unschedulable('a').withPlugin('A'));
    d.addNodeStatus('n2', Status.unschedulable('b').withPlugin('B'));
    d.addNodeStatus('n3', Status.unschedulable('a').withPlugin('A'));
    expect([...d.unschedulablePlugins]).toEqual(['A', 'B']);
    expect(d.failedNodes).toBe(3);
  });
});
