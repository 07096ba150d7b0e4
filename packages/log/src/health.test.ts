import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkLogging, createLogger, discardLogger } from './index.js';
import { CaptureStream, loggingConfig } from './testing/capture.js';

describe('checkLogging', () => {
  it('passes when the stream takes the flush', async () => {
    const stream = new CaptureStream();
    const logger = createLogger(loggingConfig(), { stream });
    logger.info('pending');
    await expect(checkLogging(logger, 1000)).resolves.toBeUndefined();
    expect(stream.lines()).toHaveLength(1);
  });

  it('passes for the discard logger', async () => {
    await expect(checkLogging(discardLogger)).resolves.toBeUndefined();
  });

  it('fails with "logging blocked" when the flush does not finish in time', async () => {
    const stalled = new Writable({ write() {} }); // never calls back
    const logger = createLogger(loggingConfig(), { stream: stalled });
    logger.info('stuck');
    await expect(checkLogging(logger, 20)).rejects.toThrow(/^logging blocked$/);
  });

  it('fails when the stream reports an error', async () => {
    const broken = new Writable({
      write(_c, _e, cb) {
        cb(new Error('EPIPE'));
      },
    });
    broken.on('error', () => {});
    const logger = createLogger(loggingConfig(), { stream: broken });
    logger.info('lost');
    await expect(checkLogging(logger, 1000)).rejects.toThrow('logging blocked: EPIPE');
  });
});
