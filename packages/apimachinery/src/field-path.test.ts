import { describe, expect, it } from 'vitest';
import { FieldPath, path, pathString } from './field-path.js';

describe('FieldPath', () => {
  it.each([
    [path('metadata').child('name'), 'metadata.name'],
    [path('metadata').child('name').index(0).key('x'), 'metadata.name[0][x]'],
    [path('spec', 'containers').index(2).child('ports'), 'spec.containers[2].ports'],
    [FieldPath.of('metadata').child('labels').key('app.kubernetes.io/name'), 'metadata.labels[app.kubernetes.io/name]'],
    [path('values').index(0).key('app'), 'values[0][app]'],
  ])('%s', (p, want) => {
    expect(p.toString()).toBe(want);
  });
});

describe('pathString', () => {
  it.each([
    [null, '<nil>'],
    ['spec.x', 'spec.x'],
    [path('a').index(1), 'a[1]'],
  ])('%j → %s', (p, want) => {
    expect(pathString(p)).toBe(want);
  });
});
