import { describe, expect, it } from 'vitest';
import { jsonDuplicateFields, jsonHasDuplicateFields } from './go-json-duplicates.js';

describe('jsonDuplicateFields', () => {
  it.each([
    ['{}', []],
    ['{"a":1,"b":2}', []],
    ['{"a":1,"a":2}', ['a']],
    ['{"a":1,"a":2,"a":3}', ['a']],
    [
      '{"metadata":{"name":"x","labels":{"k":"1","k":"2"},"name":"y"}}',
      ['metadata.labels.k', 'metadata.name'],
    ],
    ['{"items":[{"n":1,"n":2},{"n":3}],"s":"{\\"a\\":1,\\"a\\":2}"}', ['items[0].n']],
    [' { "a" : [ 1 , true , null , "x" ] , "b" : { } , "a" : -1.5e3 } ', ['a']],
    ['{"a\\u0062":1,"ab":2}', ['ab']],
    ['[1,{"x":1,"x":2}]', ['[1].x']],
  ])('%s → %j', (text, want) => {
    expect(jsonDuplicateFields(text)).toEqual(want);
  });

  it('stops at the limit', () => {
    const text = `{${Array.from({ length: 5 }, (_, i) => `"k${i}":{"a":1,"a":2}`).join(',')}}`;
    expect(jsonDuplicateFields(text, 2)).toEqual(['k0.a', 'k1.a']);
  });

  it('walks bodies nested as deep as Go accepts (10,000 levels) without overflowing the stack', () => {
    const d = 9_999;
    expect(jsonDuplicateFields(`{"spec":${'['.repeat(d)}1${']'.repeat(d)}}`)).toEqual([]);
    const objects = `{"data":${'{"a":'.repeat(d)}{"x":1,"x":2}${'}'.repeat(d)}}`;
    expect(jsonDuplicateFields(objects)).toEqual([`data${'.a'.repeat(d)}.x`]);
  });
});

describe('jsonHasDuplicateFields', () => {
  const has = (text: string) => jsonHasDuplicateFields(Buffer.from(text, 'utf8'), JSON.parse(text));

  it.each([
    '{}',
    '[]',
    '"a:b"',
    '{"a":1,"b":2}',
    '{"a":1,"a":2}',
    '{"metadata":{"name":"x","labels":{"k":"1","k":"2"},"name":"y"}}',
    '{"items":[{"n":1,"n":2},{"n":3}],"s":"{\\"a\\":1,\\"a\\":2}"}',
    ' { "a" : [ 1 , true , null , "x" ] , "b" : { } , "a" : -1.5e3 } ',
    '{"a\\u0062":1,"ab":2}',
    '{"a\\u0062":1,"ac":2}',
    '[1,{"x":1,"x":2}]',
    '[1,{"x":1,"y":2},[{"z":{}}]]',
    '{"k:\\":\\"":"v:\\"x:","k":"::"}',
    '{"ü:ß":"日本:語","ü:ß":1}',
    '{"ü:ß":"日本:語","üß":1}',
    '{"__proto__":1,"a":{"__proto__":{"b":1}}}',
    '{"__proto__":1,"__proto__":2}',
    '{"a":{"b":{"c":[{"d":1},{"d":1,"d":2}]}}}',
    '{"a":"\\\\","a":1}',
    '{"a":"\\\\","b":"\\\\:"}',
  ])('agrees with jsonDuplicateFields on %s', (text) => {
    expect(has(text)).toBe(jsonDuplicateFields(text).length > 0);
  });

  it('counts through bodies nested as deep as Go accepts', () => {
    const d = 9_999;
    expect(has(`{"data":${'{"a":'.repeat(d)}{"x":1,"y":2}${'}'.repeat(d)}}`)).toBe(false);
    expect(has(`{"data":${'{"a":'.repeat(d)}{"x":1,"x":2}${'}'.repeat(d)}}`)).toBe(true);
    expect(has(`{"spec":${'['.repeat(d)}{"x":1,"x":2}${']'.repeat(d)}}`)).toBe(true);
  });
});
