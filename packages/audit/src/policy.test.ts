import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluatePolicy, loadPolicyFile, parsePolicy, PolicyError, type RequestAttributes } from './index.js';

const base: RequestAttributes = {
  user: { name: 'jane', groups: ['dev', 'system:authenticated'] },
  verb: 'get',
  isResourceRequest: true,
  path: '/api/v1/namespaces/default/pods/p1',
  namespace: 'default',
  apiGroup: '',
  resource: 'pods',
  subresource: '',
  name: 'p1',
};
const nonResource = (path: string, verb = 'get'): RequestAttributes => ({
  ...base,
  verb,
  isResourceRequest: false,
  path,
  namespace: '',
  resource: '',
  name: '',
});

const policy = (rules: unknown[], extra: Record<string, unknown> = {}) =>
  parsePolicy({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules, ...extra });

// One rule (plus a catch-all None) per row: does the request match it?
describe('policy matching (section 12)', () => {
  const table: [string, Record<string, unknown>, RequestAttributes, boolean][] = [
    ['empty rule matches everything', {}, base, true],
    ['empty rule matches non-resource requests', {}, nonResource('/healthz'), true],
    ['users: listed user', { users: ['jane'] }, base, true],
    ['users: other user', { users: ['bob'] }, base, false],
    ['userGroups: any group matches', { userGroups: ['ops', 'dev'] }, base, true],
    ['userGroups: no group matches', { userGroups: ['ops'] }, base, false],
    ['users without a user', { users: ['jane'] }, { ...base, user: undefined }, false],
    ['verbs: listed', { verbs: ['get', 'list'] }, base, true],
    ['verbs: not listed', { verbs: ['watch'] }, base, false],
    ['namespaces: listed', { namespaces: ['default'] }, base, true],
    ['namespaces: other', { namespaces: ['kube-system'] }, base, false],
    [
      'namespaces: "" matches cluster-scoped',
      { namespaces: [''] },
      { ...base, namespace: '', resource: 'nodes' },
      true,
    ],
    ['namespaces make it a resource rule', { namespaces: ['default'] }, nonResource('/api'), false],
    ['resources: core group pods', { resources: [{ group: '', resources: ['pods'] }] }, base, true],
    ['resources: group omitted is core', { resources: [{ resources: ['pods'] }] }, base, true],
    ['resources: other group', { resources: [{ group: 'apps', resources: ['pods'] }] }, base, false],
    [
      'resources: group "*" matches any group',
      { resources: [{ group: '*', resources: ['events'] }] },
      { ...base, apiGroup: 'events.k8s.io', resource: 'events' },
      true,
    ],
    [
      'resources: group without resources matches the whole group',
      { resources: [{ group: '' }] },
      base,
      true,
    ],
    ['resources: "*"', { resources: [{ resources: ['*'] }] }, { ...base, subresource: 'log' }, true],
    [
      'resources: "pods" does not match pods/log',
      { resources: [{ resources: ['pods'] }] },
      { ...base, subresource: 'log' },
      false,
    ],
    [
      'resources: "pods/log"',
      { resources: [{ resources: ['pods/log'] }] },
      { ...base, subresource: 'log' },
      true,
    ],
    [
      'resources: "*/status" on pods/status',
      { resources: [{ resources: ['*/status'] }] },
      { ...base, subresource: 'status' },
      true,
    ],
    ['resources: "*/status" not on pods', { resources: [{ resources: ['*/status'] }] }, base, false],
    ['resources: "pods/*" on pods', { resources: [{ resources: ['pods/*'] }] }, base, true],
    [
      'resources: "pods/*" on pods/exec',
      { resources: [{ resources: ['pods/*'] }] },
      { ...base, subresource: 'exec' },
      true,
    ],
    [
      'resources: "pods/*" not on nodes',
      { resources: [{ resources: ['pods/*'] }] },
      { ...base, resource: 'nodes' },
      false,
    ],
    ['resourceNames: listed', { resources: [{ resources: ['pods'], resourceNames: ['p1'] }] }, base, true],
    [
      'resourceNames: other name',
      { resources: [{ resources: ['pods'], resourceNames: ['p2'] }] },
      base,
      false,
    ],
    [
      'resources never match non-resource requests',
      { resources: [{ resources: ['*'] }] },
      nonResource('/api'),
      false,
    ],
    ['nonResourceURLs: exact', { nonResourceURLs: ['/version'] }, nonResource('/version'), true],
    ['nonResourceURLs: exact only', { nonResourceURLs: ['/version'] }, nonResource('/version/x'), false],
    ['nonResourceURLs: prefix*', { nonResourceURLs: ['/healthz*'] }, nonResource('/healthz/etcd'), true],
    ['nonResourceURLs: "*"', { nonResourceURLs: ['*'] }, nonResource('/metrics'), true],
    ['nonResourceURLs never match resource requests', { nonResourceURLs: ['*'] }, base, false],
  ];
  it.each(table)('%s', (_name, rule, attrs, matches) => {
    const p = policy([{ level: 'Metadata', ...rule }]);
    expect(evaluatePolicy(p, attrs).level).toBe(matches ? 'Metadata' : 'None');
  });

  it('the first matching rule wins', () => {
    const p = policy([
      { level: 'None', users: ['system:kube-proxy'] },
      { level: 'RequestResponse', namespaces: ['default'] },
      { level: 'Metadata' },
    ]);
    expect(evaluatePolicy(p, base).level).toBe('RequestResponse');
    expect(evaluatePolicy(p, { ...base, user: { name: 'system:kube-proxy', groups: [] } }).level).toBe(
      'None',
    );
    expect(evaluatePolicy(p, { ...base, namespace: 'other' }).level).toBe('Metadata');
  });

  it('omitStages joins the policy-wide and the rule stages; no match keeps the policy ones', () => {
    const p = policy(
      [
        { level: 'Metadata', verbs: ['get'], omitStages: ['ResponseStarted'] },
        { level: 'Request', verbs: ['list'] },
      ],
      { omitStages: ['RequestReceived'] },
    );
    expect([...evaluatePolicy(p, base).omitStages].sort()).toEqual(['RequestReceived', 'ResponseStarted']);
    expect(evaluatePolicy(p, { ...base, verb: 'list' }).omitStages).toEqual(['RequestReceived']);
    expect(evaluatePolicy(p, { ...base, verb: 'watch' })).toEqual({
      level: 'None',
      omitStages: ['RequestReceived'],
      omitManagedFields: false,
    });
  });

  it('omitManagedFields: a rule overrides the policy default', () => {
    const p = policy([{ level: 'Request', verbs: ['get'], omitManagedFields: false }, { level: 'Request' }], {
      omitManagedFields: true,
    });
    expect(evaluatePolicy(p, base).omitManagedFields).toBe(false);
    expect(evaluatePolicy(p, { ...base, verb: 'list' }).omitManagedFields).toBe(true);
  });
});

describe('policy files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'keel-audit-policy-'));
  const file = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it('reads YAML and JSON, v1 and v1beta1', () => {
    const yaml = file('p.yaml', 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    expect(loadPolicyFile(yaml).rules[0]?.level).toBe('Metadata');
    const json = file(
      'p.json',
      JSON.stringify({ apiVersion: 'audit.k8s.io/v1beta1', kind: 'Policy', rules: [{ level: 'None' }] }),
    );
    expect(loadPolicyFile(json).rules[0]?.level).toBe('None');
  });

  it.each([
    [
      'rules:\n- level: Loud\n',
      'rules[0].level: expected one of None, Metadata, Request, RequestResponse, got string "Loud"',
    ],
    ['rules:\n- verbs: [get]\n', 'rules[0].level: required'],
    ['rules: []\n', 'rules: expected at least one rule'],
    [
      'rules:\n- level: None\n  omitStages: [Sometime]\n',
      'rules[0].omitStages[0]: expected one of RequestReceived, ResponseStarted, ResponseComplete, Panic, got string "Sometime"',
    ],
    ['rules:\n- level: None\n  user: [x]\n', 'rules[0].user: unknown field'],
    [
      'rules:\n- level: None\n  nonResourceURLs: [healthz]\n',
      "rules[0].nonResourceURLs[0]: non-resource URL rules must begin with a '/' character",
    ],
    [
      'rules:\n- level: None\n  nonResourceURLs: ["/a*b"]\n',
      "rules[0].nonResourceURLs[0]: non-resource URL wildcards '*' must be the final character",
    ],
    [
      'rules:\n- level: None\n  nonResourceURLs: ["/x"]\n  namespaces: [a]\n',
      'rules[0].nonResourceURLs: rules cannot apply to both',
    ],
    [
      'rules:\n- level: None\n  resources: [{group: "apps/v1"}]\n',
      'rules[0].resources[0].group: expected a DNS subdomain',
    ],
    [
      'rules:\n- level: None\n  resources: [{resourceNames: [x]}]\n',
      'rules[0].resources[0].resourceNames: using resourceNames requires at least one resource',
    ],
  ])('%j fails naming the file and field', (body, message) => {
    const p = file('bad.yaml', `apiVersion: audit.k8s.io/v1\nkind: Policy\n${body}`);
    expect(() => loadPolicyFile(p)).toThrow(PolicyError);
    expect(() => loadPolicyFile(p)).toThrow(`audit policy file ${p}: ${message}`);
  });

  it('a wrong apiVersion or kind, or a missing file, is one line too', () => {
    const p = file('kind.yaml', 'apiVersion: audit.k8s.io/v2\nkind: Policy\nrules: [{level: None}]\n');
    expect(() => loadPolicyFile(p)).toThrow(
      `audit policy file ${p}: apiVersion: expected one of audit.k8s.io/v1, audit.k8s.io/v1beta1, got string "audit.k8s.io/v2"`,
    );
    expect(() => loadPolicyFile(join(dir, 'missing.yaml'))).toThrow(
      `audit policy file ${join(dir, 'missing.yaml')}: cannot be read: ENOENT`,
    );
  });
});
