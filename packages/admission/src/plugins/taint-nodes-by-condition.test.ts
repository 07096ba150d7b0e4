import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, writeOf } from '../testing/index.js';

const chain = chainOf(['TaintNodesByCondition'], depsOf({}));
const node = (spec: Record<string, unknown> = {}) => ({ metadata: { name: 'n1' }, spec });

describe('TaintNodesByCondition', () => {
  it('taints a new node not-ready:NoSchedule, after the taints it has', async () => {
    const n = node({ taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
    await chain.admit(writeOf('CREATE', 'nodes', n));
    expect(n.spec['taints']).toEqual([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
    ]);
  });

  it('does not add it twice, and leaves updates and pods alone', async () => {
    const tainted = node({
      taints: [{ key: 'node.kubernetes.io/not-ready', value: 'x', effect: 'NoSchedule' }],
    });
    await chain.admit(writeOf('CREATE', 'nodes', tainted));
    expect(tainted.spec['taints']).toHaveLength(1);
    expect(chain.handles('UPDATE')).toBe(false);
    const status = node();
    await chain.admit(writeOf('CREATE', 'nodes', status, { subresource: 'status' }));
    expect(status.spec['taints']).toBeUndefined();
  });
});
