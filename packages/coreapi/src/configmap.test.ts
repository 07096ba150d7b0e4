import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { configMapView, type ConfigMap } from './configmap.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function cm(body: Record<string, unknown>): ConfigMap {
  const c = configMapView.decode({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, ...body }).object;
  c.metadata.uid = 'u';
  c.metadata.resourceVersion = '1';
  c.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
  return c;
}

const keyRegex = `a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`;

describe('ConfigMap', () => {
  it('round-trips data and binaryData with sorted keys', () => {
    const out = configMapView.encode(cm({ data: { b: '2', a: '1' }, binaryData: { bin: 'AAE=' } }));
    expect(JSON.stringify(out)).toBe(
      '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"c","namespace":"default","uid":"u","resourceVersion":"1","creationTimestamp":"2024-05-01T10:00:00Z"},"data":{"a":"1","b":"2"},"binaryData":{"bin":"AAE="}}',
    );
  });

  it('refuses bad base64 with a 400', () => {
    expect(() => configMapView.decode({ binaryData: { x: '!!' } })).toThrow('ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte 0');
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['valid keys', { data: { 'app.properties': 'x', KEY_1: 'y' } }, []],
    ['a key with a slash', { data: { 'a/b': 'x' } }, [`data[a/b]: Invalid value: "a/b": ${keyRegex}`]],
    ['a dot-dot key', { data: { '..x': 'x' } }, [`data[..x]: Invalid value: "..x": must not start with '..'`]],
    ['a key in both maps', { data: { k: 'x' }, binaryData: { k: 'AA==' } }, ['data[k]: Invalid value: "k": duplicate of key present in binaryData']],
    ['more than 1 MiB', { data: { a: 'x'.repeat(1024 * 1024 + 1) } }, [': Too long: may not be more than 1048576 bytes']],
  ])('%s', (_name, body, errors) => {
    expect(strings(configMapView.validateCreate(cm(body)))).toEqual(errors);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['unchanged', { immutable: true, data: { a: '1' } }, []],
    [
      'changed data and immutable dropped',
      { data: { a: '2' } },
      ['immutable: Forbidden: field is immutable when `immutable` is set', 'data: Forbidden: field is immutable when `immutable` is set'],
    ],
  ])('an immutable ConfigMap: %s', (_name, body, errors) => {
    const old = cm({ immutable: true, data: { a: '1' } });
    expect(strings(configMapView.validateUpdate(cm(body), old))).toEqual(errors);
  });

  it('selects only on metadata.name and metadata.namespace', () => {
    expect(configMapView.convertFieldLabel('metadata.name', 'c')).toEqual({ field: 'metadata.name', value: 'c' });
    expect(() => configMapView.convertFieldLabel('data.a', 'x')).toThrow('"data.a" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('prints Name, Data (key count) and Age', () => {
    expect(configMapView.tableColumns.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(configMapView.tableRow(cm({ data: { a: '1' }, binaryData: { b: 'AA==' } }), new Date('2024-05-01T10:00:30Z'))).toEqual(['c', 2, '30s']);
  });
});
