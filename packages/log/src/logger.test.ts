import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModuleLevel } from '@keel/flags';
import { createLogger, discardLogger, type Logger } from './index.js';
import { CaptureStream, nextLine, loggingConfig } from './testing/capture.js';

const FILE = 'logger.test.ts';
// Local time, as klog prints it: the constructor takes local components, so the header is fixed.
const CLOCK = new Date(2024, 10, 20, 23, 12, 56, 81);
const PID = String(process.pid).padStart(7);
const header = (severity: string, line: number) => `${severity}1120 23:12:56.081000 ${PID} ${FILE}:${line}] `;

function setup(
  overrides: { verbosity?: number; vmodule?: readonly ModuleLevel[]; flushFrequency?: string } = {},
) {
  const stream = new CaptureStream();
  const logger = createLogger(loggingConfig(overrides), { stream, now: () => CLOCK });
  return { stream, logger };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('line format', () => {
  it('writes klog structured text exactly', async () => {
    const { stream, logger } = setup();
    const line = nextLine(FILE);
    logger.info('Serving securely', { address: '127.0.0.1:6443' });
    await logger.flush();
    expect(stream.text).toBe(`${header('I', line)}"Serving securely" address="127.0.0.1:6443"\n`);
  });

  it('matches the documented shape', async () => {
    const { stream, logger } = setup();
    logger.info('x');
    await logger.flush();
    expect(stream.text).toMatch(/^I1120 23:12:56\.081000 [ \d]{7} logger\.test\.ts:\d+\] "x"\n$/);
  });

  it('pads the microseconds and the date fields', async () => {
    const stream = new CaptureStream();
    const logger = createLogger(loggingConfig(), { stream, now: () => new Date(2025, 0, 2, 3, 4, 5, 6) });
    const line = nextLine(FILE);
    logger.info('early');
    await logger.flush();
    expect(stream.text).toBe(`I0102 03:04:05.006000 ${PID} ${FILE}:${line}] "early"\n`);
  });

  it.each<[string, (l: Logger) => void, string]>([
    ['info', (l) => l.info('m'), 'I'],
    ['warning', (l) => l.warning('m'), 'W'],
    ['error', (l) => l.error('m'), 'E'],
    ['v(0).info', (l) => l.v(0).info('m'), 'I'],
  ])('%s writes severity %s', async (_name, call, letter) => {
    const { stream, logger } = setup();
    call(logger);
    await logger.flush();
    expect(stream.text.slice(0, 1)).toBe(letter);
  });

  it('quotes the message the way Go %q does', async () => {
    const { stream, logger } = setup();
    logger.warning('say "hi"\nbye');
    await logger.flush();
    expect(stream.text).toMatch(/\] "say \\"hi\\"\\nbye"\n$/);
  });

  it('prints values by type', async () => {
    const { stream, logger } = setup();
    logger.info('values', { s: 'x y', n: 3, f: 0.25, b: false, u: undefined, o: { a: [1] } });
    await logger.flush();
    expect(stream.text).toMatch(/\] "values" s="x y" n=3 f=0\.25 b=false u=<nil> o=\{"a":\[1\]\}\n$/);
  });

  it('reports the caller of an unbound method', async () => {
    const { stream, logger } = setup();
    // The interface does not promise it, but createLogger's methods work detached (e.g. as callbacks).
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const { info } = logger;
    const line = nextLine(FILE);
    info('unbound');
    await logger.flush();
    expect(stream.text).toBe(`${header('I', line)}"unbound"\n`);
  });
});

describe('errors', () => {
  it('prints err first and as its message, never a stack trace', async () => {
    const { stream, logger } = setup();
    const err = new Error('dial tcp 10.0.0.1:2379: connection refused');
    const line = nextLine(FILE);
    logger.error('Failed to list pods', { namespace: 'default', err });
    await logger.flush();
    expect(stream.text).toBe(
      `${header('E', line)}"Failed to list pods" err="dial tcp 10.0.0.1:2379: connection refused" namespace="default"\n`,
    );
    expect(stream.text).not.toContain('    at ');
  });

  it('keeps kv order for info and warning', async () => {
    const { stream, logger } = setup();
    logger.warning('w', { a: 1, err: new Error('e') });
    await logger.flush();
    expect(stream.text).toMatch(/"w" a=1 err="e"\n$/);
  });
});

describe('verbosity', () => {
  it.each<[number, number, boolean]>([
    [0, 0, true],
    [0, 1, false],
    [2, 1, true],
    [2, 2, true],
    [2, 3, false],
    [10, 10, true],
  ])('--v=%i: v(%i).enabled is %s', async (verbosity, level, enabled) => {
    const { stream, logger } = setup({ verbosity });
    const v = logger.v(level);
    expect(v.enabled).toBe(enabled);
    const line = nextLine(FILE);
    v.info('verbose', { level });
    await logger.flush();
    expect(stream.text).toBe(enabled ? `${header('I', line)}"verbose" level=${level}\n` : '');
  });

  it('costs no stack capture or allocation when disabled', async () => {
    const { stream, logger } = setup({ verbosity: 1 });
    const capture = vi.spyOn(Error, 'captureStackTrace');
    const v = logger.v(2);
    v.info('dropped', { expensive: 1 });
    expect(capture).not.toHaveBeenCalled();
    expect(logger.v(3)).toBe(v);
    await logger.flush();
    expect(stream.text).toBe('');
  });

  it.each<[string, number, readonly ModuleLevel[], number, boolean]>([
    ['matching pattern raises the level', 0, [{ pattern: 'logger.test', level: 4 }], 4, true],
    ['above the matching level', 0, [{ pattern: 'logger.test', level: 4 }], 5, false],
    ['glob *', 0, [{ pattern: 'logger.*', level: 3 }], 3, true],
    ['glob ?', 0, [{ pattern: 'logge?.test', level: 3 }], 3, true],
    ['other file only', 0, [{ pattern: 'server', level: 9 }], 1, false],
    [
      'first match wins',
      0,
      [
        { pattern: 'logger*', level: 1 },
        { pattern: 'logger.test', level: 5 },
      ],
      2,
      false,
    ],
    ['vmodule cannot lower -v', 3, [{ pattern: 'logger.test', level: 1 }], 3, true],
  ])('--vmodule: %s', async (_name, verbosity, vmodule, level, enabled) => {
    const { stream, logger } = setup({ verbosity, vmodule });
    expect(logger.v(level).enabled).toBe(enabled);
    const line = nextLine(FILE);
    logger.v(level).info('per file');
    await logger.flush();
    expect(stream.text).toBe(enabled ? `${header('I', line)}"per file"\n` : '');
  });
});

describe('with', () => {
  it('adds the child values before the call values; call values win', async () => {
    const { stream, logger } = setup();
    const child = logger.with({ component: 'scheduler', pod: 'a' });
    const grandchild = child.with({ attempt: 2 });
    child.info('child', { pod: 'b', node: 'n1' });
    grandchild.v(0).info('grandchild');
    logger.info('root');
    await logger.flush();
    expect(stream.lines().map((l) => l.slice(l.indexOf('] ') + 2))).toEqual([
      '"child" component="scheduler" pod="b" node="n1"',
      '"grandchild" component="scheduler" pod="a" attempt=2',
      '"root"',
    ]);
  });

  it('puts an err from with() first on error lines', async () => {
    const { stream, logger } = setup();
    logger.with({ a: 1, err: new Error('boom') }).error('failed');
    await logger.flush();
    expect(stream.text).toMatch(/"failed" err="boom" a=1\n$/);
  });
});

describe('buffering', () => {
  it('writes buffered lines in one write at the end of the turn, well before the flush interval', async () => {
    const { stream, logger } = setup({ flushFrequency: '5s' });
    logger.info('one');
    logger.info('two');
    expect(stream.text).toBe('');
    await new Promise((r) => setImmediate(r));
    expect(stream.lines()).toHaveLength(2);
    expect(stream.writes).toBe(1);
  });

  it('writes an error line, and everything before it, at once', () => {
    const { stream, logger } = setup();
    logger.info('before');
    logger.error('now');
    expect(stream.lines().map((l) => l[0])).toEqual(['I', 'E']);
    expect(stream.writes).toBe(1);
  });

  it('writes when the buffer is full', () => {
    const stream = new CaptureStream();
    const logger = createLogger(loggingConfig(), { stream, maxBufferChars: 200 });
    logger.info('x'.repeat(100));
    expect(stream.writes).toBe(0);
    logger.info('y'.repeat(100));
    expect(stream.writes).toBe(1);
  });

  it('stops buffering after close()', async () => {
    const { stream, logger } = setup();
    logger.info('buffered');
    await logger.close();
    expect(stream.lines()).toHaveLength(1);
    logger.info('after close');
    expect(stream.lines()).toHaveLength(2);
  });
});

describe('robustness', () => {
  const circular: Record<string, unknown> = { name: 'loop' };
  circular.self = circular;
  const hostile = new Proxy(
    {},
    {
      ownKeys() {
        throw new Error('trap');
      },
    },
  );

  it.each<[string, unknown]>([
    ['circular object', { obj: circular }],
    ['bigint', { n: 10n ** 30n }],
    ['undefined value', { u: undefined }],
    ['null kv', null],
    ['hostile proxy', hostile],
    [
      'throwing getter',
      {
        get x(): never {
          throw new Error('getter');
        },
      },
    ],
  ])('never throws on %s', async (_name, kv) => {
    const { stream, logger } = setup();
    // Casts stand in for untyped JavaScript callers.
    expect(() => logger.info('weird', kv as Record<string, unknown>)).not.toThrow();
    expect(() => logger.with(kv as Record<string, unknown>).error('weird')).not.toThrow();
    await logger.flush();
    expect(stream.lines()).toHaveLength(2);
  });

  it('never throws when the clock throws', async () => {
    const stream = new CaptureStream();
    const logger = createLogger(loggingConfig(), {
      stream,
      now: () => {
        throw new Error('clock');
      },
    });
    expect(() => logger.info('x')).not.toThrow();
    await expect(logger.flush()).rejects.toThrow('clock');
  });
});

describe('discardLogger', () => {
  it('accepts every call and writes nothing', async () => {
    expect(discardLogger.v(0).enabled).toBe(false);
    discardLogger.with({ a: 1 }).error('x', { err: new Error('e') });
    await expect(discardLogger.flush()).resolves.toBeUndefined();
  });
});
