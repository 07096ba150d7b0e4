import { describe, expect, it } from 'vitest';
import { watchParent } from './parent-watch.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('watchParent', () => {
  it('calls back once when the parent changes, and not before', async () => {
    let ppid = 100;
    let calls = 0;
    const stop = watchParent(() => calls++, { ppid: () => ppid, intervalMs: 5 });
    await tick(30);
    expect(calls).toBe(0);
    ppid = 1;
    await tick(30);
    ppid = 2;
    await tick(30);
    expect(calls).toBe(1);
    stop();
  });

  it('stops watching when told to', async () => {
    let ppid = 100;
    let calls = 0;
    const stop = watchParent(() => calls++, { ppid: () => ppid, intervalMs: 5 });
    stop();
    ppid = 1;
    await tick(30);
    expect(calls).toBe(0);
  });
});
