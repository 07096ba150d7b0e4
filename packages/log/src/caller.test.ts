import { describe, expect, it } from 'vitest';
import { callerOf, parseFrame } from './caller.js';
import { nextLine } from './testing/capture.js';

describe('parseFrame', () => {
  it.each<[string, string | undefined, { file: string; line: number }]>([
    ['named function', 'Error\n    at serve (/srv/app/dist/server.js:42:7)', { file: 'server.js', line: 42 }],
    ['anonymous', 'Error\n    at /srv/app/src/server.ts:7:1', { file: 'server.ts', line: 7 }],
    ['file URL', 'Error\n    at run (file:///srv/app/dist/run.js:3:9)', { file: 'run.js', line: 3 }],
    ['vite query string', 'Error\n    at x (/srv/a.ts?v=123:5:2)', { file: 'a.ts', line: 5 }],
    ['async frame', 'Error\n    at async main (/srv/main.ts:12:3)', { file: 'main.ts', line: 12 }],
    ['windows path', 'Error\n    at f (C:\\srv\\app\\w.js:8:1)', { file: 'w.js', line: 8 }],
    ['path with spaces', 'Error\n    at f (/my dir/x.ts:4:4)', { file: 'x.ts', line: 4 }],
    ['no frames', 'Error', { file: '???', line: 1 }],
    ['no stack', undefined, { file: '???', line: 1 }],
  ])('%s', (_name, stack, want) => {
    expect(parseFrame(stack)).toEqual(want);
  });
});

describe('callerOf', () => {
  function entry(): ReturnType<typeof callerOf> {
    return internals();
  }
  function internals(): ReturnType<typeof callerOf> {
    return callerOf(entry);
  }

  it('names the frame that called the entry point, not the internals below it', () => {
    const line = nextLine('caller.test.ts');
    const got = entry();
    expect(got).toEqual({ file: 'caller.test.ts', line });
  });

  it('restores Error.stackTraceLimit', () => {
    const before = Error.stackTraceLimit;
    entry();
    expect(Error.stackTraceLimit).toBe(before);
  });
});
