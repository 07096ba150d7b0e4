import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { ServiceNetworkOptions, type ServiceNetworkConfig } from './service-network-options.js';

function setup(argv: string[]) {
  const o = new ServiceNetworkOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { serviceNetwork?: ServiceNetworkConfig } = {};
    o.applyTo(config);
    return config.serviceNetwork;
  };
  return { o, fss, parsed, slice };
}

describe('ServiceNetworkOptions', () => {
  it('registers its flags in the Misc section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Misc').map((f) => [f.name, f.typeName, f.defaultText, f.deprecated])).toEqual([
      ['enable-aggregator-routing', '', '', undefined],
      ['endpoint-reconciler-type', 'string', '"lease"', undefined],
      ['master-service-namespace', 'string', '"default"', 'This flag will be removed in a future version.'],
      ['platform-service-node-port', 'int', '', undefined],
      ['service-cluster-ip-range', 'string', '', undefined],
      ['service-node-port-range', 'portRange', '30000-32767', undefined],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      serviceClusterIPRanges: ['10.0.0.0/24'],
      apiServerServiceIP: '10.0.0.1',
      serviceNodePortRange: { base: 30000, size: 2768 },
      platformServiceNodePort: 0,
      endpointReconcilerType: 'lease',
      masterServiceNamespace: 'default',
      enableAggregatorRouting: false,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--enable-aggregator-routing',
      '--endpoint-reconciler-type=none',
      '--master-service-namespace=platform-system',
      '--platform-service-node-port=30443',
      '--service-cluster-ip-range=fd00:10::5/108, 10.96.0.0/12',
      '--service-node-port-range=30000-30999',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([
      'Flag --master-service-namespace has been deprecated, This flag will be removed in a future version.',
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      serviceClusterIPRanges: ['fd00:10::/108', '10.96.0.0/12'],
      apiServerServiceIP: 'fd00:10::1',
      serviceNodePortRange: { base: 30000, size: 1000 },
      platformServiceNodePort: 30443,
      endpointReconcilerType: 'none',
      masterServiceNamespace: 'platform-system',
      enableAggregatorRouting: true,
    });
  });

  it.each([
    [
      '--endpoint-reconciler-type=bogus',
      'invalid argument "bogus" for "--endpoint-reconciler-type" flag: must be one of "master-count", "lease", "none"',
    ],
    [
      '--service-node-port-range=32767-30000',
      'invalid argument "32767-30000" for "--service-node-port-range" flag: unable to parse port range: 32767-30000: end port is lower than start port',
    ],
  ])('rejects %s at parse time', (arg, error) => {
    expect(setup([arg]).parsed.errors).toEqual([error]);
  });

  it.each([
    [['--service-cluster-ip-range=10.0.0.7/16'], []],
    [['--service-cluster-ip-range=10.0.0.0/31'], []],
    [['--service-cluster-ip-range=10.0.0.0/16,fd00::/108'], []],
    [
      ['--service-cluster-ip-range=10.0.0.0/16,10.1.0.0/16'],
      ['--service-cluster-ip-range[0] and --service-cluster-ip-range[1] must be of different IP family'],
    ],
    [
      ['--service-cluster-ip-range=10.0.0.0/16,fd00::/108,10.2.0.0/16'],
      ['--service-cluster-ip-range must not contain more than two entries'],
    ],
    [
      ['--service-cluster-ip-range=10.0.0.0,fd00::/129'],
      [
        '--service-cluster-ip-range "10.0.0.0" is not a valid CIDR: invalid CIDR address: 10.0.0.0',
        '--service-cluster-ip-range "fd00::/129" is not a valid CIDR: invalid CIDR address: fd00::/129',
      ],
    ],
    [
      ['--service-cluster-ip-range=10.0.0.0/24,'],
      ['--service-cluster-ip-range "" is not a valid CIDR: invalid CIDR address: '],
    ],
    [
      ['--service-cluster-ip-range=10.0.0.5/32'],
      ['--service-cluster-ip-range 10.0.0.5/32 has no room for the master service IP; use a larger range'],
    ],
    [['--platform-service-node-port=30000'], []],
    [['--platform-service-node-port=32767'], []],
    [
      ['--platform-service-node-port=32768'],
      ['--platform-service-node-port 32768 is not within --service-node-port-range 30000-32767'],
    ],
    [
      ['--platform-service-node-port=443', '--service-node-port-range=30000+10'],
      ['--platform-service-node-port 443 is not within --service-node-port-range 30000-30010'],
    ],
    [['--platform-service-node-port=443', '--service-node-port-range=1-1000'], []],
    [
      ['--platform-service-node-port=70000'],
      ['--platform-service-node-port 70000 must be between 0 and 65535, inclusive'],
    ],
    [
      ['--platform-service-node-port=-1'],
      ['--platform-service-node-port -1 must be between 0 and 65535, inclusive'],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });

  it('refuses to apply options that did not validate', () => {
    const { o, slice } = setup(['--service-cluster-ip-range=nope']);
    expect(o.validate()).toHaveLength(1);
    expect(() => slice()).toThrow('invalid --service-cluster-ip-range');
  });
});
