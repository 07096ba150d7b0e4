import { describe, expect, it } from 'vitest';
import { Duration } from './duration.js';
import { NamedFlagSets } from './flag-set.js';
import { parseArgs } from './parse-args.js';
import * as t from './types.js';

function fixture() {
  const o = {
    port: 6443,
    auth: true,
    sni: [] as readonly string[],
    list: ['a', 'b'] as readonly string[],
    gates: new Map<string, boolean>() as ReadonlyMap<string, boolean>,
    ttl: Duration.parse('1h'),
    v: 0,
    dir: '/var/run/platform',
    old: 'x',
  };
  const fss = new NamedFlagSets('cmd');
  const s = fss.section('Test');
  s.var(o, 'port', { name: 'secure-port', type: t.int, usage: 'port' });
  s.var(o, 'auth', { name: 'anonymous-auth', type: t.bool, usage: 'anon' });
  s.var(o, 'sni', { name: 'tls-sni-cert-key', type: t.stringArray, usage: 'sni' });
  s.var(o, 'list', { name: 'list', type: t.strings, usage: 'list' });
  s.var(o, 'gates', { name: 'feature-gates', type: t.mapStringBool, usage: 'gates' });
  s.var(o, 'ttl', { name: 'event-ttl', type: t.duration, usage: 'ttl' });
  s.var(o, 'v', { name: 'v', shorthand: 'v', type: t.level, usage: 'level' });
  s.var(o, 'dir', { name: 'cert-dir', type: t.string, usage: 'dir' });
  s.var(o, 'old', {
    name: 'lock-object-name',
    type: t.string,
    usage: 'old',
    deprecated: 'use --leader-elect-resource-name instead',
  });
  return { o, fss };
}

describe('parseArgs (pflag semantics)', () => {
  it('accepts --name value and --name=value, last scalar wins', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, ['--secure-port', '1', '--secure-port=2', '--cert-dir=/tmp/x']);
    expect(r.errors).toEqual([]);
    expect(o.port).toBe(2);
    expect(o.dir).toBe('/tmp/x');
    expect(fss.changed('secure-port')).toBe(true);
    expect(fss.changed('anonymous-auth')).toBe(false);
  });

  it.each([
    [['--anonymous-auth'], true],
    [['--anonymous-auth=false'], false],
    [['--anonymous-auth=0'], false],
    [['--anonymous-auth=T'], true],
  ])('booleans: %j', (argv, expected) => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, argv).errors).toEqual([]);
    expect(o.auth).toBe(expected);
  });

  it('does not let a bare boolean swallow the next argument', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, ['--anonymous-auth', 'false']);
    expect(o.auth).toBe(true);
    expect(r.positionals).toEqual(['false']);
  });

  it('accumulates repeatable flags and replaces the default on first use', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, [
      '--tls-sni-cert-key',
      'a,b:*.x',
      '--tls-sni-cert-key=c,d',
      '--list=x,y',
      '--list',
      'z',
    ]);
    expect(r.errors).toEqual([]);
    expect(o.sni).toEqual(['a,b:*.x', 'c,d']);
    expect(o.list).toEqual(['x', 'y', 'z']);
  });

  it('merges key=value maps across occurrences', () => {
    const { o, fss } = fixture();
    parseArgs(fss, ['--feature-gates=A=true,B=false', '--feature-gates', 'C=true']);
    expect([...o.gates.entries()]).toEqual([
      ['A', true],
      ['B', false],
      ['C', true],
    ]);
  });

  it.each([[['-v4']], [['-v', '4']], [['-v=4']], [['--v=4']], [['--v', '4']]])('verbosity %j', (argv) => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, argv).errors).toEqual([]);
    expect(o.v).toBe(4);
  });

  it('collects every problem, one line each, naming the flag and the value', () => {
    const { fss } = fixture();
    const r = parseArgs(fss, [
      '--secure-port=abc',
      '--bogus=1',
      '--event-ttl=5x',
      '--anonymous-auth=maybe',
      '--feature-gates=A',
      '-q',
      '--cert-dir',
    ]);
    expect(r.errors).toEqual([
      'invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax',
      'unknown flag: --bogus',
      'invalid argument "5x" for "--event-ttl" flag: time: unknown unit "x" in duration "5x"',
      'invalid argument "maybe" for "--anonymous-auth" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
      'invalid argument "A" for "--feature-gates" flag: malformed pair, expect string=bool',
      "unknown shorthand flag: 'q' in -q",
      'flag needs an argument: --cert-dir',
    ]);
  });

  it('treats the value after an unknown flag as its value, and -- ends the flags', () => {
    const { fss } = fixture();
    const r = parseArgs(fss, ['--bogus', 'value', '--', '--secure-port=1']);
    expect(r.errors).toEqual(['unknown flag: --bogus']);
    expect(r.positionals).toEqual(['--secure-port=1']);
  });

  it('warns about deprecated flags but applies them', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, ['--lock-object-name=mine']);
    expect(o.old).toBe('mine');
    expect(r.warnings).toEqual([
      'Flag --lock-object-name has been deprecated, use --leader-elect-resource-name instead',
    ]);
  });

  it('rejects bad syntax', () => {
    const { fss } = fixture();
    expect(parseArgs(fss, ['---x', '--=1']).errors).toEqual([
      'bad flag syntax: ---x',
      'bad flag syntax: --=1',
    ]);
  });

  it('refuses to register the same flag twice', () => {
    const { fss } = fixture();
    const o = { x: 1 };
    expect(() => fss.section('Other').var(o, 'x', { name: 'secure-port', type: t.int, usage: '' })).toThrow(
      'flag redefined: secure-port',
    );
  });
});
