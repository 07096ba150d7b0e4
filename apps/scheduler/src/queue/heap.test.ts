import { describe, expect, it } from 'vitest';
import { KeyedHeap } from './heap.js';

interface Item {
  readonly key: string;
  readonly v: number;
}

const heapOf = (...vs: number[]) => {
  const h = new KeyedHeap<Item>(
    (i) => i.key,
    (a, b) => a.v < b.v,
  );
  vs.forEach((v, i) => h.addOrUpdate({ key: `k${i}`, v }));
  return h;
};

const drain = (h: KeyedHeap<Item>) => {
  const out: number[] = [];
  for (let i = h.pop(); i; i = h.pop()) out.push(i.v);
  return out;
};

describe('KeyedHeap', () => {
  it('pops in order', () => {
    expect(drain(heapOf(5, 3, 9, 1, 7, 3, 0))).toEqual([0, 1, 3, 3, 5, 7, 9]);
  });

  it('updates an item in place', () => {
    const h = heapOf(5, 3, 9);
    h.addOrUpdate({ key: 'k2', v: 1 });
    h.addOrUpdate({ key: 'k1', v: 10 });
    expect(h.size).toBe(3);
    expect(drain(h)).toEqual([1, 5, 10]);
  });

  it('deletes by key from anywhere', () => {
    const h = heapOf(4, 8, 1, 6, 2, 9);
    expect(h.delete('k1')?.v).toBe(8);
    expect(h.delete('k1')).toBeUndefined();
    expect(h.delete('k2')?.v).toBe(1);
    expect(h.has('k2')).toBe(false);
    expect(h.get('k3')?.v).toBe(6);
    expect(drain(h)).toEqual([2, 4, 6, 9]);
  });

  it('stays ordered under random operations', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const h = new KeyedHeap<Item>(
      (i) => i.key,
      (a, b) => a.v < b.v,
    );
    const model = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const key = `k${Math.floor(rnd() * 100)}`;
      if (rnd() < 0.3) {
        h.delete(key);
        model.delete(key);
      } else {
        const v = Math.floor(rnd() * 1000);
        h.addOrUpdate({ key, v });
        model.set(key, v);
      }
    }
    expect(drain(h)).toEqual([...model.values()].sort((a, b) => a - b));
  });
});
