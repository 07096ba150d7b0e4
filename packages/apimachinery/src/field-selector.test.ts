import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { checkFieldLabels, defaultMetaFieldLabels, parseFieldSelector, supportedFieldLabels } from './field-selector.js';

function badRequestMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    expect((err as StatusError).status).toMatchObject({ reason: 'BadRequest', code: 400 });
    return (err as StatusError).message;
  }
  throw new Error('no error thrown');
}

describe('parseFieldSelector', () => {
  it.each([
    ['', [], ''],
    ['metadata.name=foo', [{ field: 'metadata.name', operator: '=', value: 'foo' }], 'metadata.name=foo'],
    ['a==b', [{ field: 'a', operator: '==', value: 'b' }], 'a=b'],
    [
      'c!=d,a=b',
      [
        { field: 'a', operator: '=', value: 'b' },
        { field: 'c', operator: '!=', value: 'd' },
      ],
      'a=b,c!=d',
    ],
    ['a=b\\,c', [{ field: 'a', operator: '=', value: 'b,c' }], 'a=b\\,c'],
    ['a=x\\=y\\\\z', [{ field: 'a', operator: '=', value: 'x=y\\z' }], 'a=x\\=y\\\\z'],
    ['a=', [{ field: 'a', operator: '=', value: '' }], 'a='],
    ['=v', [{ field: '', operator: '=', value: 'v' }], '=v'],
    ['a=b,,', [{ field: 'a', operator: '=', value: 'b' }], 'a=b'],
    ['spec.unschedulable=true', [{ field: 'spec.unschedulable', operator: '=', value: 'true' }], 'spec.unschedulable=true'],
  ])('%j', (text, reqs, printed) => {
    const s = parseFieldSelector(text);
    expect(s.requirements).toEqual(reqs);
    expect(s.toString()).toBe(printed);
  });

  it.each([
    ['a=b=c', 'invalid field selector: unescaped character in value: ='],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['abc', "invalid selector: 'abc'; can't understand 'abc'"],
    ['x=1,abc', "invalid selector: 'x=1,abc'; can't understand 'abc'"],
  ])('%j fails: %s', (text, message) => {
    expect(badRequestMessage(() => parseFieldSelector(text))).toBe(message);
  });
});

describe('matching', () => {
  it.each<[string, Record<string, string>, boolean]>([
    ['', {}, true],
    ['a=b', { a: 'b' }, true],
    ['a=b', { a: 'c' }, false],
    ['a=', {}, true],
    ['a!=x', {}, true],
    ['a!=x', { a: 'x' }, false],
    ['a=1,b=2', { a: '1', b: '2' }, true],
    ['a=1,b=2', { a: '1', b: '3' }, false],
    ['spec.unschedulable=true', { 'spec.unschedulable': 'true' }, true],
  ])('%j on %j: %s', (text, fields, want) => {
    expect(parseFieldSelector(text).matches(fields)).toBe(want);
  });

  it.each([
    ['metadata.name=x', 'metadata.name', 'x'],
    ['metadata.name==x', 'metadata.name', 'x'],
    ['metadata.name!=x', 'metadata.name', undefined],
    ['a=b', 'metadata.name', undefined],
  ])('requiresExactMatch(%j, %j)', (text, field, want) => {
    expect(parseFieldSelector(text).requiresExactMatch(field)).toBe(want);
  });
});

describe('field labels', () => {
  const eventLabels = ['metadata.name', 'metadata.namespace', 'reason', 'type', 'regarding.name'];

  it('accepts supported labels and may rename them', () => {
    const s = parseFieldSelector('regarding.name=p,type=Normal').transform(supportedFieldLabels(eventLabels, { 'regarding.name': 'involvedObject.name' }));
    expect(s.toString()).toBe('involvedObject.name=p,type=Normal');
  });

  it.each([
    ['involvedObject.name=x', 'field label not supported: involvedObject.name'],
    ['type=a,zzz=1', 'field label not supported: zzz'],
  ])('%j → 400 %s', (text, message) => {
    expect(badRequestMessage(() => checkFieldLabels(parseFieldSelector(text), eventLabels))).toBe(message);
  });

  it('default conversion allows only name and namespace', () => {
    expect(parseFieldSelector('metadata.namespace=a').transform(defaultMetaFieldLabels).toString()).toBe('metadata.namespace=a');
    expect(badRequestMessage(() => parseFieldSelector('spec.x=1').transform(defaultMetaFieldLabels))).toBe(
      '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    );
  });
});
