import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupSignalHandler, whenAborted, type SignalSource } from './signals.js';

class FakeProcess extends EventEmitter implements SignalSource {
  exitCode: number | undefined;
  exit(code: number): never {
    this.exitCode = code;
    throw new Error(`exit ${code}`);
  }
}

describe('setupSignalHandler', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('aborts on the first %s', async (sig) => {
    const proc = new FakeProcess();
    const s = setupSignalHandler(proc);
    expect(s.signal.aborted).toBe(false);
    proc.emit(sig, sig);
    expect(s.signal.aborted).toBe(true);
    expect(s.signal.reason).toBe(sig);
    await whenAborted(s.signal);
    expect(proc.exitCode).toBeUndefined();
  });

  it('exits 1 on the second signal', () => {
    const proc = new FakeProcess();
    setupSignalHandler(proc);
    proc.emit('SIGTERM', 'SIGTERM');
    expect(() => proc.emit('SIGINT', 'SIGINT')).toThrow('exit 1');
    expect(proc.exitCode).toBe(1);
  });

  it('removes its handlers on dispose', () => {
    const proc = new FakeProcess();
    const s = setupSignalHandler(proc);
    s.dispose();
    expect(proc.listenerCount('SIGTERM')).toBe(0);
    expect(proc.listenerCount('SIGINT')).toBe(0);
  });
});
