import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const chain = chainOf(['LimitPodHardAntiAffinityTopology'], depsOf({}));
const antiAffinity = (topologyKey: string, kind = 'requiredDuringSchedulingIgnoredDuringExecution') => {
  const term = { labelSelector: { matchLabels: { app: 'web' } }, topologyKey };
  const rule = kind.startsWith('required') ? term : { weight: 1, podAffinityTerm: term };
  return { affinity: { podAntiAffinity: { [kind]: [rule] } } };
};

describe('LimitPodHardAntiAffinityTopology', () => {
  it('refuses required anti-affinity over anything but nodes', async () => {
    for (const op of ['CREATE', 'UPDATE'] as const) {
      expect(
        await refusalOf(chain, writeOf(op, 'pods', podOf('p', antiAffinity('topology.kubernetes.io/zone')))),
      ).toEqual({
        code: 403,
        reason: 'Forbidden',
        message:
          'pods "p" is forbidden: affinity.PodAntiAffinity.RequiredDuringScheduling has TopologyKey topology.kubernetes.io/zone but only key kubernetes.io/hostname is allowed',
      });
    }
  });

  it('admits hostname spreading and preferred rules', async () => {
    expect(
      await refusalOf(chain, writeOf('CREATE', 'pods', podOf('p', antiAffinity('kubernetes.io/hostname')))),
    ).toBeUndefined();
    const preferred = antiAffinity(
      'topology.kubernetes.io/zone',
      'preferredDuringSchedulingIgnoredDuringExecution',
    );
    expect(await refusalOf(chain, writeOf('CREATE', 'pods', podOf('p', preferred)))).toBeUndefined();
  });
});
