import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { RegistryOptions, type RegistryConfig } from './registry-options.js';

function setup(argv: string[]) {
  const o = new RegistryOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { registry?: RegistryConfig } = {};
    o.applyTo(config);
    return config.registry;
  };
  return { o, fss, parsed, slice };
}

describe('RegistryOptions', () => {
  it('registers its flags in the Store section, with the watch cache and the garbage collector on', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Store').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['delete-collection-workers', 'int', '1'],
      ['enable-garbage-collector', '', 'true'],
      ['event-ttl', 'duration', '1h0m0s'],
      ['watch-cache', '', 'true'],
      ['watch-cache-sizes', 'strings', ''],
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.watchCache).toBe(true);
    expect([...(s?.watchCacheSizes ?? [])]).toEqual([]);
    expect(s?.deleteCollectionWorkers).toBe(1);
    expect(s?.enableGarbageCollector).toBe(true);
    expect(s?.eventTTL.toString()).toBe('1h0m0s');
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--delete-collection-workers=4',
      '--enable-garbage-collector=false',
      '--event-ttl=30m',
      '--watch-cache=false',
      '--watch-cache-sizes=pods#0,deployments.apps#100',
      '--watch-cache-sizes=leases.coordination.k8s.io#+0',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.watchCache).toBe(false);
    expect([...(s?.watchCacheSizes ?? [])]).toEqual([
      ['pods', 0],
      ['deployments.apps', 100],
      ['leases.coordination.k8s.io', 0],
    ]);
    expect(s?.deleteCollectionWorkers).toBe(4);
    expect(s?.enableGarbageCollector).toBe(false);
    expect(s?.eventTTL.toString()).toBe('30m0s');
  });

  it.each([
    [['--delete-collection-workers=0'], ['--delete-collection-workers must be greater than 0, got 0']],
    [['--event-ttl=0s'], ['--event-ttl must be greater than 0, got 0s']],
    [['--event-ttl=-1h'], ['--event-ttl must be greater than 0, got -1h0m0s']],
    [
      ['--watch-cache-sizes=pods,nodes#1#2,#0,.apps#0,pods#x,pods#1.5,pods#-1'],
      [
        '--watch-cache-sizes "pods" must have the form resource[.group]#size',
        '--watch-cache-sizes "nodes#1#2" must have the form resource[.group]#size',
        '--watch-cache-sizes "#0" must name a resource before #',
        '--watch-cache-sizes ".apps#0" must name a resource before #',
        '--watch-cache-sizes "pods#x" has a size that is not an integer',
        '--watch-cache-sizes "pods#1.5" has a size that is not an integer',
        '--watch-cache-sizes "pods#-1" has a negative size',
      ],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
