import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { NodeAgentOptions, type NodeAgentConfig } from './nodeagent-options.js';

function setup(argv: string[]) {
  const o = new NodeAgentOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { nodeAgent?: NodeAgentConfig } = {};
    o.applyTo(config);
    return config.nodeAgent;
  };
  return { o, fss, parsed, slice };
}

describe('NodeAgentOptions', () => {
  it('registers its flags in the Misc section with the spec defaults', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Misc').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['nodeagent-certificate-authority', 'string', ''],
      ['nodeagent-client-certificate', 'string', ''],
      ['nodeagent-client-key', 'string', ''],
      [
        'nodeagent-preferred-address-types',
        'strings',
        '[Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP]',
      ],
      ['nodeagent-timeout', 'duration', '5s'],
    ]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect({ ...s, timeout: s?.timeout.toString() }).toEqual({
      certificateAuthority: undefined,
      clientCertificate: undefined,
      preferredAddressTypes: ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'],
      timeout: '5s',
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--nodeagent-certificate-authority=/pki/ca.crt',
      '--nodeagent-client-certificate=/pki/client.crt',
      '--nodeagent-client-key=/pki/client.key',
      '--nodeagent-preferred-address-types=InternalIP,Hostname',
      '--nodeagent-timeout=10s',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect({ ...s, timeout: s?.timeout.toString() }).toEqual({
      certificateAuthority: '/pki/ca.crt',
      clientCertificate: { certFile: '/pki/client.crt', keyFile: '/pki/client.key' },
      preferredAddressTypes: ['InternalIP', 'Hostname'],
      timeout: '10s',
    });
  });

  it.each([
    [
      ['--nodeagent-client-certificate=/c'],
      ['--nodeagent-client-key is required when --nodeagent-client-certificate is set'],
    ],
    [
      ['--nodeagent-client-key=/k'],
      ['--nodeagent-client-certificate is required when --nodeagent-client-key is set'],
    ],
    [
      ['--nodeagent-preferred-address-types=InternalIP,internalip,Hostname,InternalIP'],
      [
        '--nodeagent-preferred-address-types "internalip" is not supported; supported values: "Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"',
        '--nodeagent-preferred-address-types lists "InternalIP" more than once',
      ],
    ],
    [
      ['--nodeagent-preferred-address-types='],
      ['--nodeagent-preferred-address-types must list at least one address type'],
    ],
    [['--nodeagent-timeout=0s'], ['--nodeagent-timeout must be greater than 0, got 0s']],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
