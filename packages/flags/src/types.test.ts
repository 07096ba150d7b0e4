import { describe, expect, it } from 'vitest';
import * as t from './types.js';
import type { FlagType } from './flag-type.js';

function parse<T>(type: FlagType<T>, raw: string, current?: T): T {
  return type.parse(raw, current as T, current === undefined);
}

describe('scalar types', () => {
  it.each([
    ['10', 10],
    ['-5', -5],
    ['0x1f', 31],
    ['0o17', 15],
    ['017', 15],
    ['1_000', 1000],
  ])('int %s', (raw, v) => expect(parse(t.int, raw)).toBe(v));

  it.each([['abc'], [''], ['1.5'], ['1_'], ['9223372036854775808']])('int rejects %j', (raw) => {
    expect(() => parse(t.int, raw)).toThrow(/strconv.ParseInt/);
  });

  it('int32 range', () => {
    expect(parse(t.int32, '2147483647')).toBe(2147483647);
    expect(() => parse(t.int32, '2147483648')).toThrow('value out of range');
  });

  it.each([
    ['0.001', 0.001],
    ['1e-3', 0.001],
    ['-2', -2],
  ])('float %s', (raw, v) => expect(parse(t.float, raw)).toBe(v));

  it('float rejects junk', () =>
    expect(() => parse(t.float, '1x')).toThrow('strconv.ParseFloat: parsing "1x": invalid syntax'));
});

describe('list and map types', () => {
  it('strings reads CSV with quotes', () => {
    expect(parse(t.strings, 'a,"b,c",d')).toEqual(['a', 'b,c', 'd']);
    expect(parse(t.strings, '')).toEqual([]);
    expect(() => parse(t.strings, 'a,"b')).toThrow(/extraneous or missing "/);
    expect(t.strings.format(['x', 'y'])).toBe('[x,y]');
  });

  it('mapStringString keeps bare keys as empty values', () => {
    const m = parse(t.mapStringString, 'api/all=true, api/beta');
    expect([...m.entries()]).toEqual([
      ['api/all', 'true'],
      ['api/beta', ''],
    ]);
  });

  it('stringToString treats one = as a single pair', () => {
    const m = parse(t.stringToString, "metric1,label1='v1,v2,v3'");
    expect(m.get('metric1,label1')).toBe("'v1,v2,v3'");
    expect(() => parse(t.stringToString, 'novalue')).toThrow('novalue must be formatted as key=value');
  });

  it('mapStringBool names the bad value', () => {
    expect(() => parse(t.mapStringBool, 'A=yes')).toThrow('invalid value of A: yes, err: strconv.ParseBool');
  });
});

describe('network types', () => {
  it.each([['127.0.0.1'], ['::1'], ['0.0.0.0'], ['']])('ip %j', (raw) => expect(parse(t.ip, raw)).toBe(raw));
  it('ip rejects junk', () =>
    expect(() => parse(t.ip, '300.1.1.1')).toThrow('failed to parse IP: "300.1.1.1"'));

  it('cidrs', () => {
    expect(parse(t.cidrs, '130.211.0.0/22,35.191.0.0/16')).toEqual(['130.211.0.0/22', '35.191.0.0/16']);
    expect(parse(t.cidrs, 'fd00::/8')).toEqual(['fd00::/8']);
    expect(() => parse(t.cidrs, '10.0.0.0/33')).toThrow('invalid CIDR address: 10.0.0.0/33');
    expect(() => parse(t.cidrs, 'nope')).toThrow('invalid CIDR address: nope');
  });

  it.each([
    ['30000-32767', { base: 30000, size: 2768 }],
    ['8080', { base: 8080, size: 1 }],
    ['100+10', { base: 100, size: 11 }],
  ])('portRange %s', (raw, v) => expect(parse(t.portRange, raw)).toEqual(v));

  it.each([['2-1'], ['a-b'], ['1-70000']])('portRange rejects %s', (raw) => {
    expect(() => parse(t.portRange, raw)).toThrow(/unable to parse port range/);
  });

  it('namedCertKey', () => {
    expect(parse(t.namedCertKey, 'a.crt,a.key:*.example.com, foo.com')).toEqual([
      { certFile: 'a.crt', keyFile: 'a.key', names: ['*.example.com', 'foo.com'] },
    ]);
    expect(parse(t.namedCertKey, 'b.crt,b.key', [{ certFile: 'a', keyFile: 'b', names: [] }])).toHaveLength(
      2,
    );
    expect(() => parse(t.namedCertKey, 'only.crt')).toThrow(
      'expected comma separated certificate and key file paths',
    );
    expect(() => parse(t.namedCertKey, 'a,b:')).toThrow('empty names list is not allowed');
  });
});

describe('logging types', () => {
  it('vmodule', () => {
    expect(parse(t.moduleSpec, 'server=4,store*=2')).toEqual([
      { pattern: 'server', level: 4 },
      { pattern: 'store*', level: 2 },
    ]);
    expect(() => parse(t.moduleSpec, 'server')).toThrow('expect comma-separated list of filename=N');
  });
  it('enum', () => {
    const e = t.enumOf(['text']);
    expect(parse(e, 'text')).toBe('text');
    expect(() => parse(e, 'json')).toThrow('must be one of "text"');
  });
});
