import { describe, expect, it } from 'vitest';
import { compactRules, compactString, covers } from './covers.js';
import type { PolicyRule } from './types.js';

describe('covers (escalation check)', () => {
  it.each<[string, PolicyRule[], PolicyRule[], boolean]>([
    [
      'everything covers anything',
      [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments/scale'] }],
      true,
    ],
    [
      'the same rule',
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
      true,
    ],
    [
      'a verb too many',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get', 'delete'], apiGroups: [''], resources: ['pods'] }],
      false,
    ],
    [
      '*/status covers a status',
      [{ verbs: ['update'], apiGroups: [''], resources: ['*/status'] }],
      [{ verbs: ['update'], apiGroups: [''], resources: ['pods/status'] }],
      true,
    ],
    [
      'named owner does not cover unnamed',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      false,
    ],
    [
      'unnamed owner covers named',
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }],
      true,
    ],
    [
      'URL prefix',
      [{ verbs: ['get'], nonResourceURLs: ['/api*'] }],
      [{ verbs: ['get'], nonResourceURLs: ['/apis/x'] }],
      true,
    ],
    [
      'spread over two owner rules',
      [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['list'], apiGroups: [''], resources: ['pods'] },
      ],
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
      true,
    ],
  ])('%s', (_name, owner, servant, ok) => {
    expect(covers(owner, servant)[0]).toBe(ok);
  });

  it('prints the missing rules compacted, as the real error does', () => {
    const [, missing] = covers(
      [],
      [
        { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['get'], nonResourceURLs: ['/x'] },
      ],
    );
    expect(compactRules(missing).map(compactString)).toEqual([
      '{NonResourceURLs:["/x"], Verbs:["get"]}',
      '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    ]);
  });
});
