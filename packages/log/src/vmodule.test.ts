import { describe, expect, it } from 'vitest';
import { ModuleFilter, moduleName } from './vmodule.js';

describe('moduleName', () => {
  it.each([
    ['server.ts', 'server'],
    ['server.test.ts', 'server.test'],
    ['index.js', 'index'],
    ['Makefile', 'Makefile'],
    ['.hidden', '.hidden'],
  ])('%s -> %s', (file, want) => {
    expect(moduleName(file)).toBe(want);
  });
});

describe('ModuleFilter.levelFor', () => {
  it.each<[string, string, number | undefined]>([
    ['server=3', 'server.ts', 3],
    ['server=3', 'server.js', 3],
    ['server=3', 'myserver.ts', undefined],
    ['server=3', 'server.test.ts', undefined],
    ['serv*=2', 'server.ts', 2],
    ['*=1', 'anything.ts', 1],
    ['?erver=4', 'server.ts', 4],
    ['?erver=4', 'sserver.ts', undefined],
    ['server.test=5', 'server.test.ts', 5],
    ['serv*=2,server=6', 'server.ts', 2], // first match wins
    ['other=2,server=6', 'server.ts', 6],
    ['a.b=1', 'axb.ts', undefined], // `.` is literal
    ['', 'server.ts', undefined],
  ])('%j for %s is %s', (spec, file, want) => {
    const rules =
      spec === ''
        ? []
        : spec.split(',').map((item) => {
            const [pattern = '', level = ''] = item.split('=');
            return { pattern, level: Number(level) };
          });
    const filter = new ModuleFilter(rules);
    expect(filter.levelFor(file)).toBe(want);
    expect(filter.levelFor(file)).toBe(want); // cached answer is the same
    expect(filter.empty).toBe(rules.length === 0);
  });
});
