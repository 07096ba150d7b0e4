import { describe, expect, it } from 'vitest';
import { Code } from '../../framework/status.js';
import { makePod } from '../../framework/testing/fixtures.js';
import { SchedulingGates } from './scheduling-gates.js';

describe('SchedulingGates.preEnqueue', () => {
  it.each([
    ['no gates', undefined, undefined],
    ['empty gates', [], undefined],
    ['one gate', ['example.com/wait'], 'waiting for scheduling gates: [example.com/wait]'],
    ['two gates', ['a', 'b'], 'waiting for scheduling gates: [a b]'],
  ])('%s', (_name, gates, message) => {
    const s = new SchedulingGates().preEnqueue(makePod('p', gates ? { schedulingGates: gates } : {}));
    if (message === undefined) expect(s).toBeUndefined();
    else expect([s?.code, s?.message()]).toEqual([Code.UnschedulableAndUnresolvable, message]);
  });
});
