import type { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

const chain = chainOf(['RuntimeClass', 'DefaultStorageClass', 'DefaultIngressClass'], depsOf({}));

function podCreate(spec: Record<string, unknown>, subresource = ''): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource,
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    name: 'p',
    object: { metadata: { name: 'p', namespace: 'ns' }, spec } as AdmissionAttributes['object'],
    oldObject: undefined,
    user: { name: 'alice', uid: '', groups: [], extra: {} },
    dryRun: false,
  };
}

async function outcome(attrs: AdmissionAttributes): Promise<string> {
  try {
    await chain.admit(attrs);
    await chain.validate(attrs);
    return 'ok';
  } catch (err) {
    const s = (err as StatusError).status;
    return `${s.code} ${s.message}`;
  }
}

describe('RuntimeClass (no RuntimeClass objects are served)', () => {
  it('refuses a pod naming a RuntimeClass, which cannot exist', async () => {
    expect(await outcome(podCreate({ runtimeClassName: 'gvisor' }))).toBe(
      '403 pods "p" is forbidden: pod rejected: RuntimeClass "gvisor" not found',
    );
  });

  it('refuses a pod that sets its own overhead', async () => {
    expect(await outcome(podCreate({ overhead: { cpu: '10m' } }))).toBe(
      '403 pods "p" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead',
    );
  });

  it('admits other pods, and leaves subresources alone', async () => {
    expect(await outcome(podCreate({ containers: [] }))).toBe('ok');
    expect(await outcome(podCreate({ runtimeClassName: 'x' }, 'status'))).toBe('ok');
  });
});

describe('plugins for kinds Keel does not serve', () => {
  it('are in the chain by name and act on nothing', () => {
    const unserved = chain.plugins.filter((p) => p.name !== 'RuntimeClass');
    expect(unserved.map((p) => p.name)).toEqual(['DefaultStorageClass', 'DefaultIngressClass']);
    for (const p of unserved)
      expect(['CREATE', 'UPDATE', 'DELETE', 'CONNECT'].some((op) => p.handles(op as 'CREATE'))).toBe(false);
  });
});
