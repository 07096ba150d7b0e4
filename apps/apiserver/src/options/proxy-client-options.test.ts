import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { ProxyClientOptions, type ProxyClientConfig } from './proxy-client-options.js';

function setup(argv: string[]) {
  const o = new ProxyClientOptions();
  const fss = new NamedFlagSets('keel-apiserver');
  o.addFlags(fss);
  const parsed = parseArgs(fss, argv);
  const slice = () => {
    const config: { proxyClient?: ProxyClientConfig } = {};
    o.applyTo(config);
    return config.proxyClient;
  };
  return { o, fss, parsed, slice };
}

describe('ProxyClientOptions', () => {
  it('registers its flags in the Misc section', () => {
    const { fss, o, slice } = setup([]);
    expect(fss.flagsIn('Misc').map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      ['proxy-client-cert-file', 'string', ''],
      ['proxy-client-key-file', 'string', ''],
    ]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({ certificate: undefined });
  });

  it('parses both flags into the slice', () => {
    const { parsed, o, slice } = setup(['--proxy-client-cert-file=/p.crt', '--proxy-client-key-file=/p.key']);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual([]);
    expect(slice()).toEqual({ certificate: { certFile: '/p.crt', keyFile: '/p.key' } });
  });

  it.each([
    [
      ['--proxy-client-cert-file=/p.crt'],
      ['--proxy-client-key-file is required when --proxy-client-cert-file is set'],
    ],
    [
      ['--proxy-client-key-file=/p.key'],
      ['--proxy-client-cert-file is required when --proxy-client-key-file is set'],
    ],
  ])('validate %j', (argv, expected) => {
    const { parsed, o } = setup(argv);
    expect(parsed.errors).toEqual([]);
    expect(o.validate()).toEqual(expected);
  });
});
