import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { labelSelectorFromSpec } from './label-selector-meta.js';
import { parseLabelSelector } from './label-selector-parser.js';
import { labelSelectorFromSet, newLabelRequirement, nothingLabelSelector } from './label-selector.js';

const nameRegex = "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const valueRegex = "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const labelValueMsg = `a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${valueRegex}`;

describe('parse and print', () => {
  it.each([
    ['', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a==b'],
    ['a!=b', 'a!=b'],
    ['a', 'a'],
    ['!a', '!a'],
    [' a , !b ', 'a,!b'],
    ['a>1', 'a>1'],
    ['a<10', 'a<10'],
    ['a=', 'a='],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['b=1,a=2', 'a=2,b=1'],
    ['env in (prod, dev)', 'env in (dev,prod)'],
    ['x in (a,a)', 'x in (a)'],
    ['in in (in)', 'in in (in)'],
    ['notin notin (notin,in)', 'notin notin (in,notin)'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a\tin\n(b)', 'a in (b)'],
  ])('%j → %j', (text, want) => {
    expect(parseLabelSelector(text).toString()).toBe(want);
  });

  it('sorts requirements by key and keeps operators', () => {
    expect(parseLabelSelector('z!=1,a in (x,y),!m').requirements).toEqual([
      { key: 'a', operator: 'in', values: ['x', 'y'] },
      { key: 'm', operator: '!', values: [] },
      { key: 'z', operator: '!=', values: ['1'] },
    ]);
  });
});

describe('parse errors are 400 BadRequest with Go text', () => {
  it.each([
    ['x=a,', "found '', expected: identifier after ','"],
    [',x', "found ',', expected: !, identifier, or 'end of string'"],
    ['=x', "found '=', expected: !, identifier, or 'end of string'"],
    ['!x=y', "found '=', expected: ',' or 'end of string'"],
    ['x=a=b', "found '=', expected: ',' or 'end of string'"],
    ['x y', "unable to parse requirement: found 'y', expected: in, notin, =, ==, !=, gt, lt"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x>a', 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer'],
    ['x=-a', `unable to parse requirement: values[0][x]: Invalid value: "-a": ${labelValueMsg}`],
    ['x>-1', `unable to parse requirement: values[0][x]: Invalid value: "-1": ${labelValueMsg}`],
    [
      'x>b-',
      `unable to parse requirement: [values[0]: Invalid value: "b-": for 'Gt', 'Lt' operators, the value must be an integer, values[0][x]: Invalid value: "b-": ${labelValueMsg}]`,
    ],
    [
      'app: nginx',
      `unable to parse requirement: <nil>: Invalid value: "app:": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${nameRegex}`,
    ],
    [
      'a/b/c ?=? def',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character ${nameRegex} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
  ])('%j', (text, message) => {
    let caught: unknown;
    try {
      parseLabelSelector(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    const status = (caught as StatusError).status;
    expect(status).toMatchObject({ reason: 'BadRequest', code: 400, message });
  });
});

describe('matching', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['', {}, true],
    ['a=b', { a: 'b' }, true],
    ['a=b', { a: 'c' }, false],
    ['a=b', {}, false],
    ['a==b', { a: 'b' }, true],
    ['a!=b', {}, true],
    ['a!=b', { a: 'b' }, false],
    ['a!=b', { a: 'c' }, true],
    ['a in (x,y)', { a: 'y' }, true],
    ['a in (x,y)', {}, false],
    ['a notin (x,y)', {}, true],
    ['a notin (x,y)', { a: 'x' }, false],
    ['a', { a: '' }, true],
    ['a', {}, false],
    ['!a', {}, true],
    ['!a', { a: '' }, false],
    ['a>5', { a: '10' }, true],
    ['a>5', { a: '5' }, false],
    ['a>5', { a: 'x' }, false],
    ['a>5', {}, false],
    ['a<5', { a: '-1' }, true],
    ['a<9223372036854775807', { a: '9223372036854775806' }, true],
    ['a=', { a: '' }, true],
    ['a=', {}, false],
    ['a in ()', { a: '' }, true],
    ['a=1,b=2', { a: '1', b: '2' }, true],
    ['a=1,b=2', { a: '1' }, false],
    ['toString', { toString: 'x' }, true],
    ['toString', {}, false],
  ])('%j matches %j: %s', (text, labels, want) => {
    expect(parseLabelSelector(text).matches(labels)).toBe(want);
  });
});

describe('selector helpers', () => {
  it.each([
    ['a=b', 'a', 'b'],
    ['a==b', 'a', 'b'],
    ['a in (b)', 'a', 'b'],
    ['a in (b,c)', 'a', undefined],
    ['a!=b', 'a', undefined],
    ['a=b', 'c', undefined],
  ])('requiresExactMatch(%j, %j)', (text, label, want) => {
    expect(parseLabelSelector(text).requiresExactMatch(label)).toBe(want);
  });

  it('isEmpty', () => {
    expect(parseLabelSelector('').isEmpty()).toBe(true);
    expect(parseLabelSelector('a').isEmpty()).toBe(false);
    expect(nothingLabelSelector().isEmpty()).toBe(false);
    expect(nothingLabelSelector().matches({})).toBe(false);
  });

  it('from a set', () => {
    const s = labelSelectorFromSet({ b: '2', a: '1' });
    expect(s.toString()).toBe('a=1,b=2');
    expect(s.matches({ a: '1', b: '2', c: '3' })).toBe(true);
  });

  it('newLabelRequirement validates like NewRequirement', () => {
    expect(() => newLabelRequirement('a', '=', ['x', 'y'])).toThrow('values: Invalid value: ["x","y"]: exact-match compatibility requires one single value');
    expect(() => newLabelRequirement('a', 'in', [])).toThrow("values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
    expect(() => newLabelRequirement('a', 'exists', ['x'])).toThrow('values: Invalid value: ["x"]: values set must be empty for exists and does not exist');
    expect(() => newLabelRequirement('a', 'gt', ['1', '2'])).toThrow("values: Invalid value: [\"1\",\"2\"]: for 'Gt', 'Lt' operators, exactly one value is required");
    expect(newLabelRequirement('a', 'in', ['b'])).toEqual({ key: 'a', operator: 'in', values: ['b'] });
  });
});

describe('metav1.LabelSelector', () => {
  it.each([
    [null, {}, false],
    [{}, { any: 'thing' }, true],
    [{ matchLabels: { app: 'web' } }, { app: 'web' }, true],
    [{ matchLabels: { app: 'web' } }, { app: 'db' }, false],
    [{ matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }] }, { tier: 'b' }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['a'] }] }, {}, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'Exists' }] }, { tier: '' }, true],
    [{ matchExpressions: [{ key: 'tier', operator: 'DoesNotExist' }] }, { tier: '' }, false],
  ])('%j on %j', (spec, labels, want) => {
    expect(labelSelectorFromSpec(spec).matches(labels)).toBe(want);
  });

  it('rejects unknown operators and empty In sets', () => {
    expect(() => labelSelectorFromSpec({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toThrow('"Gt" is not a valid label selector operator');
    expect(() => labelSelectorFromSpec({ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] })).toThrow(
      "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty",
    );
  });
});
