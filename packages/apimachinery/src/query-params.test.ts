import { describe, expect, it } from 'vitest';
import { StatusError } from './errors.js';
import { fieldManagerFromUserAgent, isPrettyPrint, queryBool, queryInt64, queryOptionalBool, queryOptionalInt64, queryString, queryStrings } from './query-params.js';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

describe('Go boolean semantics', () => {
  it.each([
    ['', false, undefined],
    ['watch', true, true],
    ['watch=', true, true],
    ['watch=true', true, true],
    ['watch=1', true, true],
    ['watch=yes', true, true],
    ['watch=0', false, false],
    ['watch=false', false, false],
    ['watch=FALSE', false, false],
    ['watch=False', false, false],
    ['watch=0&watch=1', false, false],
  ])('%j', (query, plain, optional) => {
    expect(queryBool(q(query), 'watch')).toBe(plain);
    expect(queryOptionalBool(q(query), 'watch')).toBe(optional);
  });
});

describe('integers', () => {
  it.each([
    ['limit=500', 500, 500],
    ['', 0, undefined],
    ['limit=-1', -1, -1],
    ['limit=%2B7', 7, 7],
  ])('%j', (query, plain, optional) => {
    expect(queryInt64(q(query), 'limit')).toBe(plain);
    expect(queryOptionalInt64(q(query), 'limit')).toBe(optional);
  });

  it.each([
    ['limit=abc', 'strconv.ParseInt: parsing "abc": invalid syntax'],
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    ['limit=99999999999999999999', 'strconv.ParseInt: parsing "99999999999999999999": value out of range'],
    // A query string's `+` is a space, for Go's url.ParseQuery too.
    ['limit=+7', 'strconv.ParseInt: parsing " 7": invalid syntax'],
  ])('%j → 400', (query, message) => {
    let caught: unknown;
    try {
      queryInt64(q(query), 'limit');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StatusError);
    expect((caught as StatusError).status).toMatchObject({ code: 400, reason: 'BadRequest', message });
  });
});

describe('strings', () => {
  it('first value wins; all values on request', () => {
    expect(queryString(q('a=1&a=2'), 'a')).toBe('1');
    expect(queryString(q(''), 'a')).toBe('');
    expect(queryStrings(q('dryRun=All&dryRun=x'), 'dryRun')).toEqual(['All', 'x']);
  });
});

describe('isPrettyPrint', () => {
  it.each([
    ['pretty=true', '', true],
    ['pretty=1', '', true],
    ['pretty=T', '', true],
    ['pretty=yes', '', false],
    ['pretty=false', 'curl/8.0', false],
    ['pretty=0', 'Mozilla/5.0 (X11)', false],
    ['pretty=', 'curl/8.0', true],
    ['', 'curl/8.0', true],
    ['', 'Wget/1.21', true],
    ['', 'Mozilla/5.0 (X11)', true],
    ['', 'kubectl/v1.30.0', false],
  ])('%j with %j → %s', (query, ua, want) => {
    expect(isPrettyPrint(q(query), ua)).toBe(want);
  });
});

describe('fieldManagerFromUserAgent', () => {
  it.each([
    ['kubectl/v1.30.0 (linux/amd64) kubernetes/abc', 'kubectl'],
    ['kubectl-client-side-apply/v1.30.0', 'kubectl-client-side-apply'],
    ['OpenAPI-Generator/1.0.0/python', 'OpenAPI-Generator'],
    ['my\tagent', 'myagent'],
    ['x'.repeat(200), 'x'.repeat(128)],
    ['', ''],
  ])('%j → %j', (ua, want) => {
    expect(fieldManagerFromUserAgent(ua)).toBe(want);
  });
});
