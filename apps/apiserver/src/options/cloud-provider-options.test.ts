import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { CloudProviderOptions, type CloudProviderConfig } from './cloud-provider-options.js';

function setup(argv: string[]) {
  const o = new CloudProviderOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { cloudProvider?: CloudProviderConfig } = {};
    o.applyTo(config);
    return config.cloudProvider;
  };
  return { o, fss, parsed, slice };
}

describe('CloudProviderOptions', () => {
  it('registers its flags in the Cloud provider section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Cloud provider').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['cloud-config', 'string', ''],
      ['cloud-provider', 'string', ''],
      ['cloud-provider-vendor-l7lb-src-cidrs', 'cidrs', '130.211.0.0/22,35.191.0.0/16'],
      ['cloudvendor-container-registry-config', 'string', ''],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      provider: '',
      configFile: undefined,
      l7lbSourceCidrs: ['130.211.0.0/22', '35.191.0.0/16'],
      containerRegistryConfigFile: undefined,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--cloud-config=/etc/cloud.conf',
      '--cloud-provider=external',
      '--cloud-provider-vendor-l7lb-src-cidrs=10.0.0.0/8,fd00::/64',
      '--cloudvendor-container-registry-config=/etc/registry.json',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      provider: 'external',
      configFile: '/etc/cloud.conf',
      l7lbSourceCidrs: ['10.0.0.0/8', 'fd00::/64'],
      containerRegistryConfigFile: '/etc/registry.json',
    });
  });

  it('rejects a bad CIDR at parse time', () => {
    expect(setup(['--cloud-provider-vendor-l7lb-src-cidrs=10.0.0.0/8,nope']).parsed.errors).toEqual([
      'invalid argument "10.0.0.0/8,nope" for "--cloud-provider-vendor-l7lb-src-cidrs" flag: invalid CIDR address: nope',
    ]);
  });

  it.each([
    [['--cloud-provider='], []],
    [['--cloud-provider=external'], []],
    [
      ['--cloud-provider=vendor'],
      ['--cloud-provider "vendor" is not supported; Keel supports only "" and "external"'],
    ],
    [
      ['--cloud-provider=External'],
      ['--cloud-provider "External" is not supported; Keel supports only "" and "external"'],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
