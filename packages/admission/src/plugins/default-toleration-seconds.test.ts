import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const tolerationsAfterCreate = async (spec: Record<string, unknown>, flags = {}) => {
  const pod = podOf('p', spec);
  expect(
    await refusalOf(
      chainOf(['DefaultTolerationSeconds'], depsOf({}), { flags }),
      writeOf('CREATE', 'pods', pod),
    ),
  ).toBeUndefined();
  return pod.spec['tolerations'];
};

describe('DefaultTolerationSeconds', () => {
  it("adds the not-ready and unreachable NoExecute tolerations with the flags' seconds", async () => {
    expect(await tolerationsAfterCreate({})).toEqual([
      {
        key: 'node.kubernetes.io/not-ready',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    const custom = await tolerationsAfterCreate(
      {},
      { defaultNotReadyTolerationSeconds: 60, defaultUnreachableTolerationSeconds: 0 },
    );
    expect(custom).toMatchObject([{ tolerationSeconds: 60 }, { tolerationSeconds: 0 }]);
  });

  it('keeps what the pod already tolerates: an own toleration, an empty key or an empty effect', async () => {
    const own = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 5,
    };
    expect(await tolerationsAfterCreate({ tolerations: [own] })).toEqual([
      own,
      {
        key: 'node.kubernetes.io/unreachable',
        operator: 'Exists',
        effect: 'NoExecute',
        tolerationSeconds: 300,
      },
    ]);
    expect(await tolerationsAfterCreate({ tolerations: [{ operator: 'Exists' }] })).toEqual([
      { operator: 'Exists' },
    ]);
    const anyEffect = { key: 'node.kubernetes.io/unreachable', operator: 'Exists' };
    expect(await tolerationsAfterCreate({ tolerations: [anyEffect] })).toHaveLength(2);
    // A NoSchedule toleration of the same key does not cover NoExecute.
    const noSchedule = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoSchedule' };
    expect(await tolerationsAfterCreate({ tolerations: [noSchedule] })).toHaveLength(3);
  });

  it('leaves updates, subresources and other kinds alone', async () => {
    const chain = chainOf(['DefaultTolerationSeconds'], depsOf({}));
    expect(chain.handles('UPDATE')).toBe(false);
    const pod = podOf('p');
    await chain.admit(writeOf('CREATE', 'pods', pod, { subresource: 'binding' }));
    const node = { metadata: { name: 'n' }, spec: {} as Record<string, unknown> };
    await chain.admit(writeOf('CREATE', 'nodes', node));
    expect(pod.spec['tolerations']).toBeUndefined();
    expect(node.spec['tolerations']).toBeUndefined();
  });
});
