import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('returns a value until its ttl has passed, then forgets it', () => {
    let now = 1000;
    const cache = new TtlCache<{ v: string }>(10, () => now);
    cache.set('a', { v: 'x' }, 500);
    now = 1500; // still good at the instant it expires, as kube's cache
    expect(cache.get('a')).toEqual({ v: 'x' });
    now = 1501;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('caches nothing for a ttl of zero (a zero --*-ttl flag)', () => {
    const cache = new TtlCache<{ v: string }>(10);
    cache.set('a', { v: 'x' }, 0);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('setting again replaces the value and restarts its ttl', () => {
    let now = 1000;
    const cache = new TtlCache<{ v: string }>(10, () => now);
    cache.set('a', { v: 'x' }, 100);
    now = 1090;
    cache.set('a', { v: 'y' }, 100);
    now = 1150;
    expect(cache.get('a')).toEqual({ v: 'y' });
    now = 1191;
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the least recently used entry when full', () => {
    const cache = new TtlCache<{ n: number }>(2);
    cache.set('a', { n: 1 }, 60_000);
    cache.set('b', { n: 2 }, 60_000);
    expect(cache.get('a')).toEqual({ n: 1 }); // a is now more recent than b
    cache.set('c', { n: 3 }, 60_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toEqual({ n: 1 });
    expect(cache.get('c')).toEqual({ n: 3 });
    expect(cache.size).toBe(2);
  });
});
