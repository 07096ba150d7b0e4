import { describe, expect, it } from 'vitest';
import { makeNode, makePod } from '../../framework/testing/fixtures.js';
import type { NodeSelectorRequirement, NodeSelectorTerm } from '../../framework/types.js';
import { preferredNodeAffinity, requiredNodeAffinity } from './node-selector.js';

const node = makeNode('n1', { labels: { zone: 'a', disk: 'ssd', cores: '8' } });
const req = (key: string, operator: string, values?: string[]): NodeSelectorRequirement => ({
  key,
  operator,
  ...(values ? { values } : {}),
});
const required = (...terms: NodeSelectorTerm[]) =>
  makePod('p', {
    nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
  });

describe('requiredNodeAffinity', () => {
  it('is undefined for a pod without nodeSelector or required affinity', () => {
    expect(requiredNodeAffinity(makePod('p'))).toBeUndefined();
  });

  it.each<[string, NodeSelectorRequirement, boolean]>([
    ['In, matching', req('zone', 'In', ['a', 'b']), true],
    ['In, not matching', req('zone', 'In', ['b']), false],
    ['In, label missing', req('gpu', 'In', ['x']), false],
    ['NotIn, not listed', req('zone', 'NotIn', ['b']), true],
    ['NotIn, listed', req('zone', 'NotIn', ['a']), false],
    ['NotIn, label missing', req('gpu', 'NotIn', ['x']), true],
    ['Exists', req('disk', 'Exists'), true],
    ['Exists, missing', req('gpu', 'Exists'), false],
    ['DoesNotExist', req('gpu', 'DoesNotExist'), true],
    ['DoesNotExist, present', req('disk', 'DoesNotExist'), false],
    ['Gt, greater', req('cores', 'Gt', ['4']), true],
    ['Gt, equal', req('cores', 'Gt', ['8']), false],
    ['Lt, less', req('cores', 'Lt', ['16']), true],
    ['Gt over a non-integer label', req('zone', 'Gt', ['1']), false],
    ['Gt with a non-integer value is invalid', req('cores', 'Gt', ['x']), false],
    ['In without values is invalid', req('zone', 'In', []), false],
    ['Exists with values is invalid', req('zone', 'Exists', ['a']), false],
    ['an unknown operator is invalid', req('zone', 'Like', ['a']), false],
  ])('matchExpressions %s → %s', (_name, r, want) => {
    expect(requiredNodeAffinity(required({ matchExpressions: [r] }))?.(node)).toBe(want);
  });

  it.each<[string, NodeSelectorRequirement, boolean]>([
    ['In on metadata.name', req('metadata.name', 'In', ['n1']), true],
    ['In on another name', req('metadata.name', 'In', ['n2']), false],
    ['NotIn on metadata.name', req('metadata.name', 'NotIn', ['n2']), true],
    ['two values are invalid', req('metadata.name', 'In', ['n1', 'n2']), false],
    ['Exists is invalid for fields', req('metadata.name', 'Exists'), false],
  ])('matchFields %s → %s', (_name, r, want) => {
    expect(requiredNodeAffinity(required({ matchFields: [r] }))?.(node)).toBe(want);
  });

  it('ANDs requirements within a term and ORs terms; empty terms match nothing', () => {
    const zoneB = { matchExpressions: [req('zone', 'In', ['b'])] };
    const ssdInA = { matchExpressions: [req('zone', 'In', ['a']), req('disk', 'In', ['ssd'])] };
    const hddInA = { matchExpressions: [req('zone', 'In', ['a']), req('disk', 'In', ['hdd'])] };
    expect(requiredNodeAffinity(required(zoneB, ssdInA))?.(node)).toBe(true);
    expect(requiredNodeAffinity(required(zoneB, hddInA))?.(node)).toBe(false);
    expect(requiredNodeAffinity(required({}))?.(node)).toBe(false);
    expect(requiredNodeAffinity(required())?.(node)).toBe(false);
  });

  it.each([
    [{ zone: 'a' }, true],
    [{ zone: 'a', disk: 'ssd' }, true],
    [{ zone: 'b' }, false],
    [{ gpu: '' }, false],
  ])('nodeSelector %j → %s', (nodeSelector, want) => {
    expect(requiredNodeAffinity(makePod('p', { nodeSelector }))?.(node)).toBe(want);
  });

  it('needs both nodeSelector and required affinity', () => {
    const pod = makePod('p', {
      nodeSelector: { zone: 'a' },
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [req('disk', 'In', ['hdd'])] }],
        },
      },
    });
    expect(requiredNodeAffinity(pod)?.(node)).toBe(false);
  });
});

describe('preferredNodeAffinity', () => {
  it('sums the weights of matching terms, ignoring weight 0 and empty terms', () => {
    const pod = makePod('p', {
      nodeAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [
          { weight: 5, preference: { matchExpressions: [req('zone', 'In', ['a'])] } },
          { weight: 3, preference: { matchExpressions: [req('disk', 'In', ['ssd'])] } },
          { weight: 7, preference: { matchExpressions: [req('disk', 'In', ['hdd'])] } },
          { weight: 0, preference: { matchExpressions: [req('zone', 'Exists')] } },
          { weight: 9, preference: {} },
        ],
      },
    });
    expect(preferredNodeAffinity(pod)?.(node)).toBe(8);
  });

  it('is undefined without usable terms', () => {
    expect(preferredNodeAffinity(makePod('p'))).toBeUndefined();
  });
});
