import { describe, expect, it } from 'vitest';
import { NamedFlagSets } from './flag-set.js';
import { parseArgs } from './parse-args.js';
import * as t from './types.js';

// The rules yargs-parser would apply by default and pflag does not: each case fails if the parser
// configuration in parse-args.ts drifts back to yargs' defaults.

function fixture() {
  const o = {
    port: 6443,
    auth: true,
    dir: '',
    help: false,
    v: 0,
    labels: new Map() as ReadonlyMap<string, string>,
  };
  const fss = new NamedFlagSets('cmd');
  const s = fss.section('Test');
  s.var(o, 'port', { name: 'secure-port', type: t.int, usage: 'port' });
  s.var(o, 'auth', { name: 'anonymous-auth', type: t.bool, usage: 'anon' });
  s.var(o, 'dir', { name: 'cert-dir', type: t.string, usage: 'dir' });
  s.var(o, 'help', { name: 'help', shorthand: 'h', type: t.bool, usage: 'help' });
  s.var(o, 'v', { name: 'v', shorthand: 'v', type: t.level, usage: 'level' });
  return { o, fss };
}

describe('parseArgs keeps pflag rules over yargs defaults', () => {
  it('has no --no-x negation, camelCase or dotted names', () => {
    const { fss } = fixture();
    expect(parseArgs(fss, ['--no-anonymous-auth', '--securePort=1', '--cert-dir.x=1']).errors).toEqual([
      'unknown flag: --no-anonymous-auth',
      'unknown flag: --securePort',
      'unknown flag: --cert-dir.x',
    ]);
  });

  it('passes values through raw: quotes, leading zeros and hex reach the typed parser', () => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, ['--cert-dir="/x"', '--secure-port=0x10']).errors).toEqual([]);
    expect(o.dir).toBe('"/x"');
    expect(o.port).toBe(16);
  });

  it('gives a flag the next argument even when it looks like a flag', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, ['--cert-dir', '--secure-port=1']);
    expect(r.errors).toEqual([]);
    expect(o.dir).toBe('--secure-port=1');
    expect(o.port).toBe(6443);
  });

  it('takes bare booleans in short groups and any Go boolean spelling after =', () => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, ['-hv4', '--anonymous-auth=F']).errors).toEqual([]);
    expect(o.help).toBe(true);
    expect(o.v).toBe(4);
    expect(o.auth).toBe(false);
  });

  it('does not let a bare shorthand boolean take the next argument', () => {
    const { o, fss } = fixture();
    const r = parseArgs(fss, ['-h', 'false']);
    expect(o.help).toBe(true);
    expect(r.positionals).toEqual(['false']);
  });

  it('names a shorthand missing its value as pflag does', () => {
    const { fss } = fixture();
    expect(parseArgs(fss, ['-v']).errors).toEqual(["flag needs an argument: 'v' in -v"]);
  });

  it('reports each occurrence of an unknown flag and a bad one inside a short group', () => {
    const { fss } = fixture();
    expect(parseArgs(fss, ['--x=1', '--x=2', '-hq']).errors).toEqual([
      'unknown flag: --x',
      'unknown flag: --x',
      "unknown shorthand flag: 'q' in -hq",
    ]);
  });
});

describe('shorthands', () => {
  it('are not long names: --h is unknown, as in pflag', () => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, ['--h']).errors).toEqual(['unknown flag: --h']);
    expect(o.help).toBe(false);
  });

  it('and the long name set one flag, named both ways in errors', () => {
    const { o, fss } = fixture();
    expect(parseArgs(fss, ['--help=false', '-h']).errors).toEqual([]);
    expect(o.help).toBe(true);
    expect(parseArgs(fss, ['-h=maybe']).errors).toEqual([
      'invalid argument "maybe" for "-h, --help" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    ]);
  });
});
