import { describe, expect, it } from 'vitest';
import { makeNode, makeNodeInfo, makePod } from '../../framework/testing/fixtures.js';
import { runFilter } from '../../framework/testing/run-plugin.js';
import { NodeName } from './node-name.js';

describe('NodeName.filter', () => {
  it.each([
    ['no node name', undefined, undefined],
    ['empty node name', '', undefined],
    ['this node', 'n1', undefined],
    [
      'another node',
      'n2',
      { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match the requested node name"] },
    ],
  ])('%s', (_name, nodeName, want) => {
    const pod = makePod('p', nodeName === undefined ? {} : { nodeName });
    expect(runFilter(new NodeName(), pod, makeNodeInfo(makeNode('n1')))).toEqual(want);
  });
});
