import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { supportedFieldLabels } from './field-selector.js';
import { parseListOptions, parseResourceVersion, type ListOptionsConfig } from './list-options.js';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

function failure(query: string, config?: ListOptionsConfig): StatusError['status'] {
  try {
    parseListOptions(q(query), config);
  } catch (err) {
    expect(err).toBeInstanceOf(StatusError);
    return (err as StatusError).status;
  }
  throw new Error('no error thrown');
}

const invalidPrefix = 'ListOptions.meta.k8s.io "" is invalid: ';

describe('decoding', () => {
  it('defaults', () => {
    const o = parseListOptions(q(''));
    expect(o).toMatchObject({
      watch: false,
      allowWatchBookmarks: false,
      resourceVersion: '',
      resourceVersionMatch: '',
      timeoutSeconds: undefined,
      limit: 0,
      continue: '',
      sendInitialEvents: undefined,
      resourceVersionNumber: 0,
      continueToken: undefined,
    });
    expect(o.labelSelector.isEmpty()).toBe(true);
    expect(o.fieldSelector.isEmpty()).toBe(true);
  });

  it('reads every option', () => {
    const o = parseListOptions(
      q('labelSelector=app%3Dweb&fieldSelector=metadata.namespace%3Dns&watch=true&allowWatchBookmarks=1&resourceVersion=812&timeoutSeconds=30&limit=500'),
    );
    expect(o).toMatchObject({ watch: true, allowWatchBookmarks: true, resourceVersion: '812', resourceVersionNumber: 812, timeoutSeconds: 30, limit: 500 });
    expect(o.labelSelector.toString()).toBe('app=web');
    expect(o.fieldSelector.toString()).toBe('metadata.namespace=ns');
  });

  it.each([
    ['timeoutSeconds=x&limit=y', 'strconv.ParseInt: parsing "x": invalid syntax'],
    ['limit=y&labelSelector=,', 'strconv.ParseInt: parsing "y": invalid syntax'],
    ['labelSelector=,&fieldSelector=x', "found ',', expected: !, identifier, or 'end of string'"],
    ['fieldSelector=x', "invalid selector: 'x'; can't understand 'x'"],
  ])('%j → 400 %s (first failing conversion wins)', (query, message) => {
    expect(failure(query)).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('ListOptions validation (422)', () => {
  it.each([
    ['resourceVersionMatch=Exact', ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided']],
    ['resourceVersion=0&resourceVersionMatch=Exact', ['resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"']],
    ['resourceVersion=1&resourceVersionMatch=x', ['resourceVersionMatch: Unsupported value: "x": supported values: "Exact", "NotOlderThan", ""']],
    ['resourceVersion=1&resourceVersionMatch=Exact&continue=abc', ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided']],
    [
      'resourceVersionMatch=NotOlderThan&continue=abc',
      [
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
      ],
    ],
    ['sendInitialEvents=false', ['sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list']],
    ['watch=1&sendInitialEvents=true', ['resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan']],
    ['watch=1&resourceVersion=5&resourceVersionMatch=NotOlderThan', ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided']],
    [
      'watch=1&sendInitialEvents=true&resourceVersionMatch=Exact',
      [
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"',
      ],
    ],
    [
      'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=x',
      ['resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided'],
    ],
  ])('%j', (query, errors) => {
    const status = failure(query);
    const message = invalidPrefix + (errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', message });
    expect(status.details).toMatchObject({ group: 'meta.k8s.io', kind: 'ListOptions' });
    expect(status.details?.name).toBeUndefined();
    expect(status.details?.causes).toHaveLength(errors.length);
  });

  it('without WatchList, sendInitialEvents is refused on watches', () => {
    expect(failure('watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan', { watchListEnabled: false }).message).toBe(
      invalidPrefix + 'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
    );
  });
});

describe('WatchList defaulting', () => {
  it.each([
    ['watch=1', true, 'NotOlderThan'],
    ['watch=1&resourceVersion=0', true, 'NotOlderThan'],
    ['watch=1&resourceVersion=5', undefined, ''],
    ['watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan', false, 'NotOlderThan'],
    ['', undefined, ''],
  ])('%j', (query, sendInitialEvents, match) => {
    const o = parseListOptions(q(query));
    expect(o.sendInitialEvents).toBe(sendInitialEvents);
    expect(o.resourceVersionMatch).toBe(match);
  });

  it('is off with the feature off', () => {
    expect(parseListOptions(q('watch=1'), { watchListEnabled: false }).sendInitialEvents).toBeUndefined();
  });
});

describe('field labels and named requests', () => {
  it('refuses unknown labels with the default conversion', () => {
    expect(failure('fieldSelector=spec.x%3D1')).toMatchObject({
      code: 400,
      message: '"spec.x" is not a known field selector: only "metadata.name", "metadata.namespace"',
    });
  });

  it('uses the resource conversion', () => {
    const convert = supportedFieldLabels(['metadata.name', 'type']);
    expect(parseListOptions(q('fieldSelector=type%3DNormal'), { convertFieldLabel: convert }).fieldSelector.toString()).toBe('type=Normal');
    expect(failure('fieldSelector=involvedObject.name%3Dx', { convertFieldLabel: convert }).message).toBe('field label not supported: involvedObject.name');
  });

  it.each([
    ['', 'metadata.name=a'],
    ['fieldSelector=metadata.name%3Da', 'metadata.name=a'],
  ])('a named request %j selects that name', (query, want) => {
    expect(parseListOptions(q(query), { name: 'a' }).fieldSelector.toString()).toBe(want);
  });

  it.each(['fieldSelector=metadata.name%3Db', 'fieldSelector=metadata.namespace%3Dns', 'fieldSelector=metadata.name!%3Da'])('a named request with %j → 400', (query) => {
    expect(failure(query, { name: 'a' })).toMatchObject({ code: 400, message: "fieldSelector metadata.name doesn't match requested name" });
  });
});

describe('storage checks', () => {
  const token = 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6NSwic3RhcnQiOiJucy9hXHUwMDAwIn0';

  it('decodes the continue token', () => {
    expect(parseListOptions(q(`continue=${token}&limit=2`), { keyPrefix: '/registry/events/' }).continueToken).toEqual({
      fromKey: '/registry/events/ns/a\u0000',
      rv: 5,
    });
    expect(parseListOptions(q(`continue=${token}&resourceVersion=0`)).continueToken?.rv).toBe(5);
  });

  it.each([
    [`continue=${token}&resourceVersion=7`, 'specifying resource version is not allowed when using continue'],
    ['continue=a', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 0'],
    ['resourceVersion=abc', 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax'],
    ['resourceVersion=-1', 'invalid resource version: resourceVersion: Invalid value: "-1": strconv.ParseUint: parsing "-1": invalid syntax'],
    ['watch=1&resourceVersion=x1', 'invalid resource version: resourceVersion: Invalid value: "x1": strconv.ParseUint: parsing "x1": invalid syntax'],
  ])('%j → 400', (query, message) => {
    expect(failure(query)).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });

  it('a garbled token with a bad resourceVersion reports the token first', () => {
    expect(failure('continue=a&resourceVersion=7').message).toMatch(/^invalid continue token/);
  });

  it.each([
    ['', 0],
    ['0', 0],
    ['812', 812],
  ])('parseResourceVersion(%j)', (rv, want) => {
    expect(parseResourceVersion(rv)).toBe(want);
  });
});
