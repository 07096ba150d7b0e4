import { describe, expect, it } from 'vitest';
import {
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
  isValidPathSegmentName,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from './validation.js';

const subdomainMsg =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const labelMsg =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character " +
  "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const nameRegexMsg =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const labelValueMsg =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
  "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('DNS-1123 subdomain', () => {
  it.each([
    ['example.com', []],
    ['a', []],
    ['a'.repeat(253), []],
    ['Foo', [subdomainMsg]],
    ['-a', [subdomainMsg]],
    ['a..b', [subdomainMsg]],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['A'.repeat(254), ['must be no more than 253 characters', subdomainMsg]],
  ])('%s', (v, want) => {
    expect(isDNS1123Subdomain(v)).toEqual(want);
  });
});

describe('DNS-1123 label', () => {
  it.each([
    ['my-name', []],
    ['a.b', ['must not contain dots']],
    ['A', [labelMsg]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['a.'.repeat(40), ['must be no more than 63 characters', labelMsg]],
  ])('%s', (v, want) => {
    expect(isDNS1123Label(v)).toEqual(want);
  });
});

describe('DNS-1035 label', () => {
  it.each([
    ['svc-1', []],
    [
      '1svc',
      [
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character " +
          "(e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
  ])('%s', (v, want) => {
    expect(isDNS1035Label(v)).toEqual(want);
  });
});

describe('qualified name (label keys, reportingController, finalizers)', () => {
  it.each([
    ['MyName', []],
    ['example.com/my.name_1', []],
    ['kubernetes.io/scheduler', []],
    ['', ['name part must be non-empty', nameRegexMsg]],
    ['-x', [nameRegexMsg]],
    ['a'.repeat(64), ['name part must be no more than 63 characters']],
    ['/a', ['prefix part must be non-empty']],
    ['Example.com/a', [`prefix part ${subdomainMsg}`]],
    ['a/', ['name part must be non-empty', nameRegexMsg]],
    [
      'a/b/c',
      [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character " +
          "(e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') " +
          "with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ],
    ],
  ])('%j', (v, want) => {
    expect(isQualifiedName(v)).toEqual(want);
  });
});

describe('label value', () => {
  it.each([
    ['', []],
    ['my_value.1', []],
    ['-a', [labelValueMsg]],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['é', [labelValueMsg]],
  ])('%j', (v, want) => {
    expect(isValidLabelValue(v)).toEqual(want);
  });
});

describe('path segment names', () => {
  it.each([
    ['ok', []],
    ['.', ["may not be '.'"]],
    ['..', ["may not be '..'"]],
    ['a/b%c', ["may not contain '/'", "may not contain '%'"]],
    ['a%', ["may not contain '%'"]],
  ])('%j', (v, want) => {
    expect(isValidPathSegmentName(v)).toEqual(want);
  });

  it('a prefix may be "." but not contain "/"', () => {
    expect(validatePathSegmentName('.', true)).toEqual([]);
    expect(validatePathSegmentName('a/', true)).toEqual(["may not contain '/'"]);
  });
});

describe('generateName prefixes', () => {
  it.each([
    [nameIsDNSSubdomain, 'web-', true, []],
    [nameIsDNSSubdomain, 'web-', false, [subdomainMsg]],
    [nameIsDNSLabel, 'ns-', true, []],
    [nameIsDNSSubdomain, '-', true, [subdomainMsg]],
  ])('%#', (fn, name, prefix, want) => {
    expect(fn(name, prefix)).toEqual(want);
  });
});
