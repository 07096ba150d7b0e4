import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { EgressSelectorOptions, type EgressSelectorConfig } from './egress-selector-options.js';
import { TracingOptions, type TracingConfig } from './tracing-options.js';

/** The two single-file concerns: each owns one flag in its own section. */
describe.each([
  [
    'EgressSelectorOptions',
    () => new EgressSelectorOptions(),
    'Egress selector',
    'egress-selector-config-file',
    'egressSelector',
  ],
  ['TracingOptions', () => new TracingOptions(), 'Traces', 'tracing-config-file', 'tracing'],
] as const)('%s', (_name, make, section, flag, key) => {
  function setup(argv: string[]) {
    const o = make();
    const fss = new NamedFlagSets('keel-apiserver');
    o.addFlags(fss);
    const parsed = parseArgs(fss, argv);
    const config: { egressSelector?: EgressSelectorConfig; tracing?: TracingConfig } = {};
    expect(o.validate()).toEqual([]);
    o.applyTo(config);
    return { fss, parsed, slice: config[key] };
  }

  it(`registers --${flag} in the ${section} section`, () => {
    const { fss, slice } = setup([]);
    expect(fss.flagsIn(section).map((f) => [f.name, f.typeName, f.defaultText])).toEqual([
      [flag, 'string', ''],
    ]);
    expect(slice).toEqual({ configFile: undefined });
  });

  it('parses the file path into the slice', () => {
    const { parsed, slice } = setup([`--${flag}=/etc/keel/${flag}.yaml`]);
    expect(parsed.errors).toEqual([]);
    expect(slice).toEqual({ configFile: `/etc/keel/${flag}.yaml` });
  });
});
