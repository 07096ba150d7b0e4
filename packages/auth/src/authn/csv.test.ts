import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.js';

describe('parseCsv (Go encoding/csv)', () => {
  it.each<[string, string, string[][]]>([
    [
      'simple rows',
      'a,b,c\nd,e,f\n',
      [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
      ],
    ],
    ['no final newline', 'a,b,c', [['a', 'b', 'c']]],
    [
      'CRLF',
      'a,b\r\nc,d\r\n',
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    ],
    ['blank lines skipped', '\na,b\n\n\r\nc\n', [['a', 'b'], ['c']]],
    ['quoted comma', 'tok,bob,1,"g1,g2"\n', [['tok', 'bob', '1', 'g1,g2']]],
    ['doubled quote', '"a ""q"" b",c\n', [['a "q" b', 'c']]],
    ['quoted newline', '"a\nb",c\n', [['a\nb', 'c']]],
    ['quoted CRLF becomes LF', '"a\r\nb",c\r\n', [['a\nb', 'c']]],
    ['empty fields', ',,\n', [['', '', '']]],
    ['empty quoted field', '"",x\n', [['', 'x']]],
    ['leading spaces kept', ' a, b\n', [[' a', ' b']]],
    ['variable field counts', 'a\nb,c,d,e\n', [['a'], ['b', 'c', 'd', 'e']]],
    ['trailing CR at EOF dropped', 'a,b\r', [['a', 'b']]],
  ])('%s', (_name, text, expected) => {
    expect(parseCsv(text)).toEqual(expected);
  });

  it.each([
    ['bare quote', 'ab"c,d\n', 'parse error on line 1, column 3: bare " in non-quoted-field'],
    [
      'bare quote in a later field',
      'a,b,c"\n',
      'parse error on line 1, column 6: bare " in non-quoted-field',
    ],
    [
      'bare quote on line 2',
      'a\nb,"c"d\n',
      'parse error on line 2, column 5: extraneous or missing " in quoted-field',
    ],
    [
      'unterminated quote',
      'a,"bc\n',
      'parse error on line 1, column 7: extraneous or missing " in quoted-field',
    ],
    [
      'unterminated quote over lines',
      'a,"b\nc\n',
      'record on line 1; parse error on line 2, column 3: extraneous or missing " in quoted-field',
    ],
    [
      'unterminated quote at EOF',
      'a,"bc',
      'parse error on line 1, column 6: extraneous or missing " in quoted-field',
    ],
  ])('%s', (_name, text, message) => {
    expect(() => parseCsv(text)).toThrow(message);
  });
});
