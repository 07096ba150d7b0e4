import { describe, expect, it } from 'vitest';
import { negotiateMediaOptions, PLAIN, RESOURCE } from './media-options.js';
import { negotiateOutput } from './negotiate.js';
import { negotiateTable } from './table.js';

const PB = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

describe('negotiateOutput', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['application/json', 'json'],
    ['application/yaml', 'yaml'],
    ['application/yaml, application/json', 'yaml'],
    ['application/json, application/yaml', 'json'],
    ['application/*', 'json'],
    ['application/yaml;as=Table;v=v1;g=meta.k8s.io', 'yaml'],
    [PB, 'protobuf'],
    [`${PB}, application/json`, 'protobuf'],
    [`application/json, ${PB}`, 'json'],
    [`application/json;q=0.9, ${PB}`, 'protobuf'],
    [`${PB};q=0.5, */*`, 'json'],
    [`text/plain, ${PB};q=0.1`, 'protobuf'],
    [`${PB};as=Table;v=v1;g=meta.k8s.io, application/json`, 'json'],
    [`${TABLE}, ${PB}`, 'json'],
    ['text/plain', undefined],
    // goautoneg keeps a q=0 clause (last): the reference serves it.
    ['application/json;q=0', 'json'],
    [`${PB};as=PartialObjectMetadata;g=meta.k8s.io;v=v1, application/json`, 'protobuf'],
    ['application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1beta1', 'json'],
    ['application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v2', undefined],
    ['application/json;g=meta.k8s.io;v=v1', undefined],
    ['application/yaml;stream=watch', undefined],
    ['Application/JSON', undefined],
    [`${PB};as=Table;v=v1;g=meta.k8s.io`, undefined],
    ['application/json;as=Frobnicator;v=v1;g=meta.k8s.io', undefined],
  ] as const)('Accept %j → %s', (accept, want) => {
    expect(negotiateOutput(accept, true)).toBe(want);
  });

  // The headers answered without a parse must get what the parse gives (spaces bypass the
  // shortcut without changing the clauses).
  it.each(['', '*/*', 'application/json', 'application/json, */*'])(
    'answers %j as its parse does',
    (accept) => {
      for (const protobufOk of [true, false]) {
        expect(negotiateOutput(accept, protobufOk)).toBe(negotiateOutput(` ${accept} `, protobufOk));
        for (const r of [RESOURCE, PLAIN]) {
          const restrictions = { ...r, protobuf: protobufOk };
          expect(negotiateMediaOptions(accept, restrictions)).toEqual(
            negotiateMediaOptions(` ${accept} `, restrictions),
          );
        }
      }
    },
  );

  it('passes protobuf over for an object without a message', () => {
    expect(negotiateOutput(`${PB}, application/json`, false)).toBe('json');
    expect(negotiateOutput(PB, false)).toBeUndefined();
  });

  it('lets a protobuf clause ahead of a Table clause ask for the object itself', () => {
    expect(negotiateTable(`${PB}, ${TABLE}`)).toBeUndefined();
    expect(negotiateTable(`${TABLE}, ${PB}`)).toBe('v1');
  });
});
