import { describe, expect, it } from 'vitest';
import { Registry } from './registry.js';

const factory = () => ({ name: 'A' });

describe('Registry', () => {
  it('registers and finds factories', () => {
    const r = new Registry().register('A', factory);
    expect(r.get('A')).toBe(factory);
    expect(r.has('B')).toBe(false);
    expect(r.names()).toEqual(['A']);
  });

  it('refuses a name twice', () => {
    const r = new Registry().register('A', factory);
    expect(() => r.register('A', factory)).toThrow('a plugin named A already exists');
  });

  it('merges, refusing names both have', () => {
    const r = new Registry().register('A', factory).merge(new Registry().register('B', factory));
    expect(r.names()).toEqual(['A', 'B']);
    expect(() => r.merge(new Registry().register('B', factory))).toThrow('a plugin named B already exists');
  });
});
