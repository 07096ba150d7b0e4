import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { defaultAdvertiseAddress, ServerRunOptions, type ServerRunConfig } from './server-run-options.js';

function setup(argv: string[]) {
  const o = new ServerRunOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { serverRun?: ServerRunConfig } = {};
    o.applyTo(config);
    return config.serverRun;
  };
  return { o, fss, parsed, slice };
}

describe('ServerRunOptions', () => {
  it('registers its flags in the Generic section with the spec defaults', () => {
    const { fss, parsed, o, slice } = setup([]);
    expect(parsed.errors).toEqual([]);
    expect(fss.flagsIn('Generic').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['advertise-address', 'ip', ''],
      ['external-hostname', 'string', ''],
      ['cors-allowed-origins', 'strings', ''],
      ['strict-transport-security-directives', 'strings', ''],
      ['goaway-chance', 'float', ''],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({
      advertiseAddress: undefined,
      externalHostname: undefined,
      corsAllowedOrigins: [],
      strictTransportSecurity: undefined,
      goawayChance: 0,
    });
  });

  it('parses every flag into the slice', () => {
    const { parsed, o, slice } = setup([
      '--advertise-address=10.1.2.3',
      '--external-hostname=api.example.com',
      '--cors-allowed-origins=//example\\.com(:|$),^https://a\\.io$',
      '--strict-transport-security-directives=max-age=31536000,includeSubDomains,preload',
      '--goaway-chance=0.001',
    ]);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    const s = slice();
    expect(s?.advertiseAddress).toBe('10.1.2.3');
    expect(s?.externalHostname).toBe('api.example.com');
    expect(s?.corsAllowedOrigins.map(String)).toEqual([
      '/\\/\\/example\\.com(:|$)/',
      '/^https:\\/\\/a\\.io$/',
    ]);
    expect(s?.corsAllowedOrigins[0]?.test('https://example.com:443')).toBe(true);
    expect(s?.strictTransportSecurity).toBe('max-age=31536000; includeSubDomains; preload');
    expect(s?.goawayChance).toBe(0.001);
  });

  it('rejects an advertise address that is not an IP at parse time', () => {
    expect(setup(['--advertise-address=api.local']).parsed.errors).toEqual([
      'invalid argument "api.local" for "--advertise-address" flag: failed to parse IP: "api.local"',
    ]);
  });

  it.each([
    [['--goaway-chance=0'], []],
    [['--goaway-chance=0.02'], []],
    [['--goaway-chance=0.021'], ['--goaway-chance should be between 0 and 0.02, inclusive']],
    [['--goaway-chance=-0.1'], ['--goaway-chance should be between 0 and 0.02, inclusive']],
    [['--goaway-chance=NaN'], ['--goaway-chance should be between 0 and 0.02, inclusive']],
    [['--cors-allowed-origins=^https://ok\\.io$'], []],
    [['--cors-allowed-origins=//ok\\.io:'], []],
    [
      ['--cors-allowed-origins=^(bad$,example\\.com,"",//fine:'],
      [
        '--cors-allowed-origins "^(bad$" is not a valid regular expression: Invalid regular expression: /^(bad$/: Unterminated group',
        `--cors-allowed-origins "example\\\\.com" does not pin to the start and end of the host: anchor it with '^' or '//' and with '$' or ':'`,
        '--cors-allowed-origins has an empty value',
      ],
    ],
    [
      ['--cors-allowed-origins=^example\\.com'],
      [
        `--cors-allowed-origins "^example\\\\.com" does not pin to the start and end of the host: anchor it with '^' or '//' and with '$' or ':'`,
      ],
    ],
    [['--strict-transport-security-directives=max-age=0'], []],
    [['--strict-transport-security-directives=MAX-AGE=10,INCLUDESUBDOMAINS,Preload'], []],
    [
      ['--strict-transport-security-directives=includeSubDomains,preload'],
      ['--strict-transport-security-directives must include max-age=<seconds>'],
    ],
    [
      ['--strict-transport-security-directives=max-age=abc,max-age=1,foo,preload,preload'],
      [
        '--strict-transport-security-directives "max-age=abc" is not valid; allowed directives: max-age=<seconds>, includeSubDomains, preload',
        '--strict-transport-security-directives "foo" is not valid; allowed directives: max-age=<seconds>, includeSubDomains, preload',
        '--strict-transport-security-directives gives preload more than once',
      ],
    ],
    [
      ['--strict-transport-security-directives=max-age=1,max-age=2'],
      ['--strict-transport-security-directives gives max-age more than once'],
    ],
    [
      ['--strict-transport-security-directives=,'],
      [
        '--strict-transport-security-directives "" is not valid; allowed directives: max-age=<seconds>, includeSubDomains, preload',
        '--strict-transport-security-directives "" is not valid; allowed directives: max-age=<seconds>, includeSubDomains, preload',
        '--strict-transport-security-directives must include max-age=<seconds>',
      ],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});

describe('defaultAdvertiseAddress', () => {
  const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) =>
    ({ address, family, internal, netmask: '', mac: '', cidr: null }) as NetworkInterfaceInfo;
  const host = {
    lo: [nic('127.0.0.1', 'IPv4', true)],
    eth0: [nic('fe80::1', 'IPv6'), nic('192.168.0.5', 'IPv4')],
  };

  it.each([
    ['10.0.0.9', host, '10.0.0.9'],
    ['0.0.0.0', host, '192.168.0.5'],
    ['::', host, '192.168.0.5'],
    ['', { eth0: [nic('fd00::5', 'IPv6')] }, 'fd00::5'],
    ['0.0.0.0', { lo: [nic('127.0.0.1', 'IPv4', true)] }, undefined],
  ])('bind %j', (bind, interfaces, expected) => {
    expect(defaultAdvertiseAddress(bind, interfaces)).toBe(expected);
  });
});
