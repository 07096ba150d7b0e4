import { describe, expect, it } from 'vitest';
import { AdmissionChain, type AdmissionAttributes, type AdmissionPlugin } from './index.js';

const attrs = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation,
  resource: { group: '', version: 'v1', resource: 'pods' },
  subresource: '',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  namespace: 'default',
  name: 'p',
  object: { metadata: { name: 'p' } },
  oldObject: undefined,
  user: { name: 'u', uid: '', groups: [], extra: {} },
  dryRun: false,
});

function recorder(name: string, calls: string[], ops: readonly string[] = ['CREATE']): AdmissionPlugin {
  return {
    name,
    handles: (op) => ops.includes(op),
    admit: () => void calls.push(`${name}.admit`),
    validate: () => void calls.push(`${name}.validate`),
  };
}

describe('AdmissionChain', () => {
  it('runs every mutating plugin in order, then every validating plugin in order', async () => {
    const calls: string[] = [];
    const chain = new AdmissionChain([recorder('a', calls), recorder('b', calls)]);
    const a = attrs('CREATE');
    await chain.admit(a);
    await chain.validate(a);
    expect(calls).toEqual(['a.admit', 'b.admit', 'a.validate', 'b.validate']);
  });

  it('skips plugins that do not handle the operation and reports what it handles', async () => {
    const calls: string[] = [];
    const chain = new AdmissionChain([recorder('a', calls, ['DELETE'])]);
    expect(chain.handles('CREATE')).toBe(false);
    expect(chain.handles('DELETE')).toBe(true);
    await chain.admit(attrs('CREATE'));
    expect(calls).toEqual([]);
  });

  it('stops at the first refusal', async () => {
    const calls: string[] = [];
    const deny: AdmissionPlugin = {
      name: 'deny',
      handles: () => true,
      validate: () => {
        throw new Error('refused');
      },
    };
    const chain = new AdmissionChain([deny, recorder('b', calls)]);
    await expect(chain.validate(attrs('CREATE'))).rejects.toThrow('refused');
    expect(calls).toEqual([]);
  });

  it('with() appends a resource’s own plugins after the configured ones', async () => {
    const calls: string[] = [];
    const chain = new AdmissionChain([recorder('a', calls)]).with([recorder('own', calls)]);
    await chain.validate(attrs('CREATE'));
    expect(calls).toEqual(['a.validate', 'own.validate']);
  });
});
