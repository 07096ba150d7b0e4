import { describe, expect, it } from 'vitest';
import { chainOf, depsOf, podOf, refusalOf, writeOf } from '../testing/index.js';

const chain = chainOf(['SecurityContextDeny'], depsOf({}));
const refusal = async (spec: Record<string, unknown>) =>
  (await refusalOf(chain, writeOf('CREATE', 'pods', podOf('p', spec))))?.message;
const container = (securityContext: Record<string, unknown>) => ({
  name: 'app',
  image: 'a:1',
  securityContext,
});

describe('SecurityContextDeny', () => {
  it('refuses the pod-level identity fields with the real messages, in the real order', async () => {
    expect(await refusal({ securityContext: { supplementalGroups: [1], runAsUser: 1 } })).toBe(
      'pods "p" is forbidden: pod.Spec.SecurityContext.SupplementalGroups is forbidden',
    );
    expect(await refusal({ securityContext: { seLinuxOptions: { level: 's0' } } })).toBe(
      'pods "p" is forbidden: pod.Spec.SecurityContext.SELinuxOptions is forbidden',
    );
    expect(await refusal({ securityContext: { runAsUser: 0 } })).toBe(
      'pods "p" is forbidden: pod.Spec.SecurityContext.RunAsUser is forbidden',
    );
    expect(await refusal({ securityContext: { fsGroup: 2000 } })).toBe(
      'pods "p" is forbidden: pod.Spec.SecurityContext.FSGroup is forbidden',
    );
  });

  it('refuses containers and init containers setting seLinuxOptions or runAsUser', async () => {
    expect(await refusal({ initContainers: [container({ seLinuxOptions: { user: 'u' } })] })).toBe(
      'pods "p" is forbidden: SecurityContext.SELinuxOptions is forbidden',
    );
    expect(await refusal({ containers: [container({ runAsUser: 1000 })] })).toBe(
      'pods "p" is forbidden: SecurityContext.RunAsUser is forbidden',
    );
    const r = await refusalOf(
      chain,
      writeOf('UPDATE', 'pods', podOf('p', { containers: [container({ runAsUser: 1 })] })),
    );
    expect(r).toMatchObject({ code: 403, reason: 'Forbidden' });
  });

  it('admits other security settings', async () => {
    expect(
      await refusal({
        securityContext: { runAsNonRoot: true },
        containers: [container({ readOnlyRootFilesystem: true })],
      }),
    ).toBeUndefined();
  });
});
