import type { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

const chain = chainOf(['DenyServiceExternalIPs'], depsOf({}));

function write(ips: string[] | undefined, old?: string[], subresource = ''): AdmissionAttributes {
  const svc = (x: string[] | undefined) =>
    ({
      metadata: { name: 'web', namespace: 'ns' },
      spec: x ? { externalIPs: x } : {},
    }) as AdmissionAttributes['object'];
  return {
    operation: old ? 'UPDATE' : 'CREATE',
    resource: { group: '', version: 'v1', resource: 'services' },
    subresource,
    kind: { group: '', version: 'v1', kind: 'Service' },
    namespace: 'ns',
    name: 'web',
    object: svc(ips),
    oldObject: old ? svc(old) : undefined,
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

describe('DenyServiceExternalIPs', () => {
  it('refuses a Service that gains external IPs', async () => {
    const denied = '403 services "web" is forbidden: Use of external IPs is denied by admission control';
    expect(await outcome(write(['192.0.2.1']))).toBe(denied);
    expect(await outcome(write(['192.0.2.1', '192.0.2.2'], ['192.0.2.1']))).toBe(denied);
  });

  it('admits Services without new external IPs, and the status subresource', async () => {
    expect(await outcome(write(undefined))).toBe('ok');
    expect(await outcome(write(['192.0.2.1'], ['192.0.2.1', '192.0.2.2']))).toBe('ok');
    expect(await outcome(write([], ['192.0.2.1']))).toBe('ok');
    expect(await outcome(write(['192.0.2.9'], undefined, 'status'))).toBe('ok');
  });
});
