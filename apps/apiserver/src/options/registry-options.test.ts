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
  it('registers its flags in the Store section, with the watch cache and garbage collector off', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Store').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['delete-collection-workers', 'int', '1'],
      ['enable-garbage-collector', '', ''],
      ['event-ttl', 'duration', '1h0m0s'],
      ['watch-cache', '', ''],
      ['watch-cache-sizes', 'strings', ''],
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.deleteCollectionWorkers).toBe(1);
    expect(s?.eventTTL.toString()).toBe('1h0m0s');
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup(['--delete-collection-workers=4', '--event-ttl=30m']);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.deleteCollectionWorkers).toBe(4);
    expect(s?.eventTTL.toString()).toBe('30m0s');
  });

  it.each([
    [['--delete-collection-workers=0'], ['--delete-collection-workers must be greater than 0, got 0']],
    [['--event-ttl=0s'], ['--event-ttl must be greater than 0, got 0s']],
    [['--event-ttl=-1h'], ['--event-ttl must be greater than 0, got -1h0m0s']],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
