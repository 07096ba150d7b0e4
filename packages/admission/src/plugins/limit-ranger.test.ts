import type { StatusError } from '@keel/apimachinery';
import type { StoredObject } from '@keel/resource';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../index.js';
import { chainOf, depsOf } from '../testing/index.js';

type Json = Record<string, unknown>;
const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };
const stored = (o: Json): StoredObject => o as unknown as StoredObject;

function limitRange(name: string, limits: Json[], namespace = 'ns'): StoredObject {
  return stored({ metadata: { name, namespace }, spec: { limits } });
}

function podCreate(containers: Json[], over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'ns',
    name: 'p',
    object: stored({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers } }),
    oldObject: undefined,
    user: admin,
    dryRun: false,
    ...over,
  };
}

async function run(ranges: StoredObject[], a: AdmissionAttributes): Promise<string | undefined> {
  const chain = chainOf(['LimitRanger'], depsOf({ limitranges: ranges }));
  try {
    await chain.admit(a);
    await chain.validate(a);
    return undefined;
  } catch (err) {
    const s = (err as StatusError).status;
    return `${s.code} ${s.message}`;
  }
}

const container = (name: string, resources: Json = {}): Json => ({ name, image: 'x', resources });
const spec = (a: AdmissionAttributes) => (a.object as unknown as { spec: { containers: Json[] } }).spec;

describe('LimitRanger', () => {
  const defaults = limitRange('defaults', [
    {
      type: 'Container',
      default: { cpu: '500m', memory: '256Mi' },
      defaultRequest: { cpu: '100m', memory: '128Mi' },
    },
  ]);

  it('fills in a container default limits and requests and says so in an annotation', async () => {
    const a = podCreate([container('app'), container('side', { requests: { cpu: '200m' } })]);
    expect(await run([defaults], a)).toBeUndefined();
    expect(spec(a).containers[0]).toMatchObject({
      resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
    });
    expect(spec(a).containers[1]).toMatchObject({
      resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: '200m', memory: '128Mi' } },
    });
    expect(a.object?.metadata.annotations).toEqual({
      'kubernetes.io/limit-ranger':
        'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for container side; cpu, memory limit for container side',
    });
  });

  it('leaves pods alone in a namespace without ranges, and other namespaces', async () => {
    const a = podCreate([container('app')], { namespace: 'other' });
    expect(await run([defaults], a)).toBeUndefined();
    expect(spec(a).containers[0]).toEqual(container('app'));
    expect(a.object?.metadata.annotations).toBeUndefined();
  });

  it('refuses a container under the minimum with the real message', async () => {
    const min = limitRange('min', [{ type: 'Container', min: { cpu: '100m' } }]);
    expect(await run([min], podCreate([container('app', { requests: { cpu: '50m' } })]))).toBe(
      '403 pods "p" is forbidden: minimum cpu usage per Container is 100m, but request is 50m',
    );
    expect(await run([min], podCreate([container('app')]))).toBe(
      '403 pods "p" is forbidden: minimum cpu usage per Container is 100m.  No request is specified',
    );
  });

  it('refuses a container over the maximum, and lists every violation', async () => {
    const max = limitRange('max', [{ type: 'Container', max: { cpu: '1', memory: '1Gi' } }]);
    expect(await run([max], podCreate([container('app', { limits: { cpu: '2', memory: '1Gi' } })]))).toBe(
      '403 pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2',
    );
    expect(await run([max], podCreate([container('app', { limits: { cpu: '2', memory: '2Gi' } })]))).toBe(
      '403 pods "p" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]',
    );
    expect(await run([max], podCreate([container('app', { requests: { cpu: '1' } })]))).toBe(
      '403 pods "p" is forbidden: [maximum cpu usage per Container is 1.  No limit is specified, maximum memory usage per Container is 1Gi.  No limit is specified]',
    );
  });

  it('enforces the limit to request ratio', async () => {
    const ratio = limitRange('ratio', [{ type: 'Container', maxLimitRequestRatio: { cpu: '2' } }]);
    const pod = (req: string, lim: string) =>
      podCreate([container('app', { requests: { cpu: req }, limits: { cpu: lim } })]);
    expect(await run([ratio], pod('100m', '200m'))).toBeUndefined();
    expect(await run([ratio], pod('100m', '300m'))).toBe(
      '403 pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 3.000000',
    );
  });

  it('checks Pod items against the containers summed', async () => {
    const podMax = limitRange('pod', [{ type: 'Pod', max: { cpu: '1' } }]);
    const pod = podCreate([
      container('a', { requests: { cpu: '600m' }, limits: { cpu: '600m' } }),
      container('b', { requests: { cpu: '600m' }, limits: { cpu: '600m' } }),
    ]);
    expect(await run([podMax], pod)).toBe(
      '403 pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m',
    );
  });

  it('checks defaults before the bounds, so a default within them passes', async () => {
    const both = limitRange('both', [
      {
        type: 'Container',
        min: { cpu: '100m' },
        max: { cpu: '1' },
        default: { cpu: '500m' },
        defaultRequest: { cpu: '200m' },
      },
    ]);
    expect(await run([both], podCreate([container('app')]))).toBeUndefined();
  });

  it('ignores updates and subresources', async () => {
    const min = limitRange('min', [{ type: 'Container', min: { cpu: '100m' } }]);
    expect(await run([min], podCreate([container('app')], { operation: 'UPDATE' }))).toBeUndefined();
    expect(await run([min], podCreate([container('app')], { subresource: 'status' }))).toBeUndefined();
  });

  it('takes no configuration', () => {
    expect(() => chainOf(['LimitRanger'], depsOf({}), { configFile: undefined })).not.toThrow();
  });
});
