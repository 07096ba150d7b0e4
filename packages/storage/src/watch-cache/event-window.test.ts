import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../backend.js';
import { EVENT_FRESH_MS, EventWindow } from './event-window.js';

const entry = (rv: number): LogEntry => ({ rv, type: 'ADDED', key: `/pods/a/p${rv}`, value: '{}' });
const rvs = (r: ReturnType<EventWindow['read']>) => (r.kind === 'ok' ? r.entries.map((e) => e.rv) : r);

describe('EventWindow', () => {
  it('reaches back to where it started until it drops an event, then to its oldest event', () => {
    const w = new EventWindow(10, { capacity: 3 });
    expect(w.read(10, 100)).toEqual({ kind: 'ok', entries: [] });
    expect(w.read(9, 100)).toEqual({ kind: 'expired', oldest: 10 });
    expect(w.covers(9)).toBe(false);
    // Versions are the store's: other resources' writes leave gaps.
    for (const rv of [12, 15, 16]) w.push(entry(rv));
    expect(rvs(w.read(10, 100))).toEqual([12, 15, 16]);
    expect(rvs(w.read(13, 100))).toEqual([15, 16]);
    expect(rvs(w.read(12, 1))).toEqual([15]);
    w.push(entry(20));
    expect(w.size).toBe(3);
    expect(w.covers(9)).toBe(true);
    expect(w.resumableFrom).toBe(14);
    expect(rvs(w.read(14, 100))).toEqual([15, 16, 20]);
    expect(w.read(13, 100)).toEqual({ kind: 'expired', oldest: 14 });
    expect(rvs(w.read(20, 100))).toEqual([]);
  });

  it('keeps a fixed size when one was given', () => {
    let now = 0;
    const w = new EventWindow(0, { capacity: 5, now: () => now });
    for (let rv = 1; rv <= 50; rv++) {
      now += 1;
      w.push(entry(rv));
    }
    expect(w.capacity).toBe(5);
    expect(rvs(w.read(45, 100))).toEqual([46, 47, 48, 49, 50]);
  });

  it('grows while a full window holds only fresh events, and shrinks once they are stale', () => {
    let now = 0;
    const w = new EventWindow(0, { capacity: 4, maxCapacity: 16, now: () => now });
    for (let rv = 1; rv <= 40; rv++) w.push(entry(rv));
    expect(w.capacity).toBe(16);
    expect(w.size).toBe(16);
    expect(w.resumableFrom).toBe(24);
    now += EVENT_FRESH_MS + 1;
    w.push(entry(41));
    expect(w.capacity).toBe(8);
    expect(rvs(w.read(33, 100))).toEqual([34, 35, 36, 37, 38, 39, 40, 41]);
    expect(w.read(32, 100)).toMatchObject({ kind: 'expired' });
  });
});
