import { discardLogger, type KeyValues, type Logger } from '@keel/log';
import { describe, expect, it } from 'vitest';
import { LateLogger } from './late-logger.js';

function recorder(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (msg: string, kv?: KeyValues) =>
    void lines.push(`${level} ${msg}${kv ? ` ${JSON.stringify(kv)}` : ''}`);
  return {
    lines,
    logger: { ...discardLogger, info: line('I'), warning: line('W'), error: line('E') },
  };
}

describe('LateLogger', () => {
  it('holds lines until a logger is attached, writes them in order, then forwards', () => {
    const late = new LateLogger();
    late.error('discovery failed', { err: 'refused' });
    late.info('no CA');
    const { logger, lines } = recorder();
    late.attach(logger);
    late.warning('later');
    expect(lines).toEqual(['E discovery failed {"err":"refused"}', 'I no CA', 'W later']);
  });

  it('keeps only the last 100 lines while nothing is attached', () => {
    const late = new LateLogger();
    for (let i = 0; i < 150; i++) late.info(`line ${i}`);
    const { logger, lines } = recorder();
    late.attach(logger);
    expect(lines).toHaveLength(100);
    expect(lines[0]).toBe('I line 50');
  });
});
