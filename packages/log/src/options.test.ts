import { describe, expect, it } from 'vitest';
import { NamedFlagSets, parseArgs } from '@keel/flags';
import { LoggingOptions, type LoggingConfig } from './index.js';

function parse(argv: string[]) {
  const fss = new NamedFlagSets('keel-apiserver');
  const opts = new LoggingOptions();
  opts.addFlags(fss);
  const result = parseArgs(fss, argv);
  const config: { logging?: LoggingConfig } = {};
  if (result.errors.length === 0) opts.applyTo(config);
  return { fss, opts, result, errors: opts.validate(), config: config.logging };
}

describe('LoggingOptions flags', () => {
  it('registers the Logs section with the real help texts and defaults', () => {
    const { fss } = parse([]);
    expect(fss.sectionTitles()).toEqual(['Logs']);
    const shown = fss.flagsIn('Logs').map((f) => [f.name, f.shorthand, f.typeName, f.defaultText]);
    expect(shown).toEqual([
      ['log-flush-frequency', undefined, 'duration', '5s'],
      ['logging-format', undefined, 'string', '"text"'],
      ['v', 'v', 'Level', ''],
      ['vmodule', undefined, 'pattern=N,...', ''],
    ]);
    expect(fss.lookup('v')?.usage).toBe('number for the log level verbosity');
    expect(fss.lookup('vmodule')?.usage).toBe(
      'comma-separated list of pattern=N settings for file-filtered logging (only works for text log format)',
    );
    expect(fss.lookup('logging-format')?.usage).toContain('Permitted formats: "text".');
  });

  it('applies the defaults', () => {
    const { errors, config } = parse([]);
    expect(errors).toEqual([]);
    expect(config?.flushFrequency.toString()).toBe('5s');
    expect(config).toMatchObject({ verbosity: 0, vmodule: [], format: 'text' });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each<[string[], Partial<Record<'flushFrequency' | 'verbosity' | 'vmodule', unknown>>]>([
    [['--log-flush-frequency=250ms'], { flushFrequency: '250ms' }],
    [['--log-flush-frequency', '1m'], { flushFrequency: '1m0s' }],
    [['-v', '4'], { verbosity: 4 }],
    [['-v4'], { verbosity: 4 }],
    [['-v=5'], { verbosity: 5 }],
    [['--v=6'], { verbosity: 6 }],
    [['--v', '2', '--v', '3'], { verbosity: 3 }],
    [
      ['--vmodule=server=2,sched*=4'],
      {
        vmodule: [
          { pattern: 'server', level: 2 },
          { pattern: 'sched*', level: 4 },
        ],
      },
    ],
    [['--logging-format=text'], {}],
  ])('parses %j', (argv, want) => {
    const { result, errors, config } = parse(argv);
    expect(result.errors).toEqual([]);
    expect(errors).toEqual([]);
    if (want.flushFrequency !== undefined)
      expect(config?.flushFrequency.toString()).toBe(want.flushFrequency);
    if (want.verbosity !== undefined) expect(config?.verbosity).toBe(want.verbosity);
    if (want.vmodule !== undefined) expect(config?.vmodule).toEqual(want.vmodule);
  });

  it.each<[string[], string]>([
    [['-v', 'x'], 'invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax'],
    [['--v=-1'], 'invalid argument "-1" for "-v, --v" flag: strconv.ParseUint: parsing "-1": invalid syntax'],
    [
      ['--vmodule=server'],
      'invalid argument "server" for "--vmodule" flag: expect comma-separated list of filename=N',
    ],
    [
      ['--log-flush-frequency=5'],
      'invalid argument "5" for "--log-flush-frequency" flag: time: missing unit in duration "5"',
    ],
  ])('rejects %j at parse time', (argv, want) => {
    expect(parse(argv).result.errors).toEqual([want]);
  });

  it.each<[string[], string[]]>([
    [['--log-flush-frequency=0s'], ['--log-flush-frequency must be greater than 0']],
    [['--log-flush-frequency=-1s'], ['--log-flush-frequency must be greater than 0']],
    // Each daemon's flag table refuses any format but text; the options only carry it.
    [['--logging-format=json'], []],
    [['--log-flush-frequency=1ns'], []],
  ])('validates %j', (argv, want) => {
    const { result, errors } = parse(argv);
    expect(result.errors).toEqual([]);
    expect(errors).toEqual(want);
  });
});
