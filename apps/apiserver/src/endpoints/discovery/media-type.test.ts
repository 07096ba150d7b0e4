import { describe, expect, it } from 'vitest';
import { asTransform, isPlainJson, parseAccept } from './media-type.js';

const show = (header: string | undefined) =>
  parseAccept(header).map((c) => {
    const params = Object.entries(c.params)
      .map(([k, v]) => `;${k}=${v}`)
      .join('');
    return `${c.type}/${c.subtype}${params}${c.q === 1 ? '' : ` q=${c.q}`}`;
  });

describe('parseAccept', () => {
  it.each([
    [undefined, ['*/*']],
    ['', ['*/*']],
    ['  ', ['*/*']],
    ['*', ['*/*']],
    ['application/json, */*', ['application/json', '*/*']],
    ['*/*, application/json', ['application/json', '*/*']],
    ['application/*, text/plain, */*', ['text/plain', 'application/*', '*/*']],
    ['text/html;q=0.9, application/json;q=0.1', ['text/html q=0.9', 'application/json q=0.1']],
    ['application/json;q=0, text/plain', ['text/plain', 'application/json q=0']],
    // Nothing is lower-cased or unquoted (goautoneg), so this names no type the server has.
    ['Application/JSON; AS="Table"; v=v1;g=meta.k8s.io', ['Application/JSON;AS="Table";v=v1;g=meta.k8s.io']],
    // sort.Sort with acceptSlice.Less: a specific type goes before a wildcard of higher q.
    ['*/*, text/plain;q=0.5', ['text/plain q=0.5', '*/*']],
    ['application/json;q=bogus, text/plain', ['text/plain', 'application/json q=0']],
    [',,application/json,', ['application/json']],
  ])('%s → %o', (header, want) => {
    expect(show(header)).toEqual(want);
  });
});

describe('clause predicates', () => {
  it.each([
    ['application/json', true, undefined],
    ['*/*', true, undefined],
    ['application/*', true, undefined],
    ['application/yaml', false, undefined],
    ['application/json;as=Table;v=v1;g=meta.k8s.io', false, 'v1'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', false, 'v1beta1'],
    ['application/json;as=Table;v=v2;g=meta.k8s.io', false, undefined],
    ['application/json;as=Table;g=meta.k8s.io', false, undefined],
    ['application/*;as=Table;v=v1;g=meta.k8s.io', false, undefined],
  ])('%s: plain JSON %s, Table version %s', (header, plain, table) => {
    const [clause] = parseAccept(header);
    expect(clause && isPlainJson(clause)).toBe(plain);
    expect(clause && asTransform(clause, 'meta.k8s.io', 'Table', ['v1', 'v1beta1'])).toBe(table);
  });
});
