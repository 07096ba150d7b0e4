import type { StatusError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import type { AdmissionAttributes } from '../../index.js';
import { isExemptResource, objectSelectorMatches, ruleMatches, shouldCall } from './index.js';
import type { NamespaceLabels } from './match.js';
import type { WebhookRule, WebhookSpec } from './config.js';

const admin = { name: 'admin', uid: '', groups: ['system:masters'], extra: {} };

function attrs(
  over: Partial<AdmissionAttributes> & {
    labels?: Record<string, string>;
    oldLabels?: Record<string, string>;
  } = {},
): AdmissionAttributes {
  const { labels, oldLabels, ...rest } = over;
  return {
    operation: 'CREATE',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: '',
    kind: { group: '', version: 'v1', kind: 'Pod' },
    namespace: 'default',
    name: 'p',
    object: labels ? { metadata: { name: 'p', labels } } : { metadata: { name: 'p' } },
    oldObject: oldLabels ? { metadata: { name: 'p', labels: oldLabels } } : undefined,
    user: admin,
    dryRun: false,
    ...rest,
  };
}

const rule = (over: WebhookRule = {}): WebhookRule => ({
  operations: ['CREATE'],
  apiGroups: [''],
  apiVersions: ['v1'],
  resources: ['pods'],
  scope: '*',
  ...over,
});

const hook = (over: Partial<WebhookSpec> = {}): WebhookSpec => ({
  name: 'w.keel.test',
  clientConfig: { url: 'https://127.0.0.1/x' },
  rules: [rule()],
  namespaceSelector: {},
  objectSelector: {},
  ...over,
});

const namespaces = (
  labels: Record<string, Record<string, string>>,
): NamespaceLabels & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    labelsOf: (name) => {
      asked.push(name);
      return Promise.resolve(labels[name]);
    },
  };
};

describe('rules', () => {
  it('match operations, groups, versions and resources, with wildcards', () => {
    expect(ruleMatches(rule(), attrs())).toBe(true);
    expect(ruleMatches(rule(), attrs({ operation: 'UPDATE' }))).toBe(false);
    expect(ruleMatches(rule({ operations: ['*'] }), attrs({ operation: 'DELETE' }))).toBe(true);
    expect(ruleMatches(rule({ apiGroups: ['apps'] }), attrs())).toBe(false);
    expect(ruleMatches(rule({ apiGroups: ['*'], apiVersions: ['*'] }), attrs())).toBe(true);
    expect(ruleMatches(rule({ apiVersions: ['v2'] }), attrs())).toBe(false);
    expect(ruleMatches(rule({ resources: ['*'] }), attrs())).toBe(true);
    expect(ruleMatches(rule({ resources: ['nodes'] }), attrs())).toBe(false);
  });

  it('match subresources only when named: pods/status, */status, pods/*', () => {
    const status = attrs({ operation: 'UPDATE', subresource: 'status' });
    const ops = { operations: ['UPDATE'] };
    expect(ruleMatches(rule({ ...ops }), status)).toBe(false);
    expect(ruleMatches(rule({ ...ops, resources: ['*'] }), status)).toBe(false);
    expect(ruleMatches(rule({ ...ops, resources: ['pods/status'] }), status)).toBe(true);
    expect(ruleMatches(rule({ ...ops, resources: ['*/status'] }), status)).toBe(true);
    expect(ruleMatches(rule({ ...ops, resources: ['pods/*'] }), status)).toBe(true);
    expect(ruleMatches(rule({ ...ops, resources: ['*/*'] }), status)).toBe(true);
    expect(ruleMatches(rule({ ...ops, resources: ['pods/binding'] }), status)).toBe(false);
    expect(ruleMatches(rule({ ...ops, resources: ['pods/*'] }), attrs({ operation: 'UPDATE' }))).toBe(true);
  });

  it('match the scope: a namespace object is cluster-scoped', () => {
    const ns = attrs({
      resource: { group: '', version: 'v1', resource: 'namespaces' },
      namespace: '',
      name: 'team',
    });
    const node = attrs({ resource: { group: '', version: 'v1', resource: 'nodes' }, namespace: '' });
    const any = { resources: ['*'] };
    expect(ruleMatches(rule({ ...any, scope: 'Namespaced' }), attrs())).toBe(true);
    expect(ruleMatches(rule({ ...any, scope: 'Namespaced' }), ns)).toBe(false);
    expect(ruleMatches(rule({ ...any, scope: 'Namespaced' }), node)).toBe(false);
    expect(ruleMatches(rule({ ...any, scope: 'Cluster' }), ns)).toBe(true);
    expect(ruleMatches(rule({ ...any, scope: 'Cluster' }), node)).toBe(true);
    expect(ruleMatches(rule({ ...any, scope: 'Cluster' }), attrs())).toBe(false);
  });

  it('exempt admission configuration itself', () => {
    const res = (resource: string, group = 'admissionregistration.k8s.io') =>
      attrs({ resource: { group, version: 'v1', resource } });
    expect(isExemptResource(res('mutatingwebhookconfigurations'))).toBe(true);
    expect(isExemptResource(res('validatingwebhookconfigurations'))).toBe(true);
    expect(isExemptResource(res('mutatingwebhookconfigurations', 'example.com'))).toBe(false);
    expect(isExemptResource(attrs())).toBe(false);
  });
});

describe('selectors', () => {
  it('objectSelector matches the new or the old object', () => {
    const h = hook({
      objectSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] },
    });
    expect(objectSelectorMatches(h, attrs({ labels: { tier: 'web' } }))).toBe(true);
    expect(objectSelectorMatches(h, attrs({ labels: { tier: 'db' } }))).toBe(false);
    expect(
      objectSelectorMatches(
        h,
        attrs({ operation: 'UPDATE', labels: { tier: 'db' }, oldLabels: { tier: 'web' } }),
      ),
    ).toBe(true);
    expect(
      objectSelectorMatches(h, attrs({ operation: 'DELETE', object: undefined, oldLabels: { tier: 'web' } })),
    ).toBe(true);
    expect(objectSelectorMatches(hook(), attrs())).toBe(true);
  });

  it("namespaceSelector reads the namespace's labels, or a namespace object's own", async () => {
    const h = hook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    const ns = namespaces({ prod: { env: 'prod' }, dev: { env: 'dev' } });
    expect(await shouldCall(h, attrs({ namespace: 'prod' }), ns)).toBe(true);
    expect(await shouldCall(h, attrs({ namespace: 'dev' }), ns)).toBe(false);
    const nsHook = hook({ ...h, rules: [rule({ resources: ['namespaces'] })] });
    const nsWrite = (labels: Record<string, string>) =>
      attrs({
        resource: { group: '', version: 'v1', resource: 'namespaces' },
        namespace: '',
        name: 'new',
        labels,
      });
    ns.asked.length = 0;
    expect(await shouldCall(nsHook, nsWrite({ env: 'prod' }), ns)).toBe(true);
    expect(await shouldCall(nsHook, nsWrite({ env: 'dev' }), ns)).toBe(false);
    expect(ns.asked).toEqual([]);
    // Cluster-scoped objects other than namespaces are never exempted by it.
    const nodeHook = hook({ ...h, rules: [rule({ resources: ['nodes'] })] });
    expect(
      await shouldCall(
        nodeHook,
        attrs({ resource: { group: '', version: 'v1', resource: 'nodes' }, namespace: '' }),
        ns,
      ),
    ).toBe(true);
  });

  it('a missing namespace is a 404 only for a webhook whose rules match', async () => {
    const h = hook({ namespaceSelector: { matchLabels: { env: 'prod' } } });
    const ns = namespaces({});
    const err = (await shouldCall(h, attrs({ namespace: 'gone' }), ns).catch(
      (e: unknown) => e,
    )) as StatusError;
    expect(err.status).toMatchObject({
      code: 404,
      reason: 'NotFound',
      message: 'namespaces "gone" not found',
    });
    expect(
      await shouldCall(
        hook({ ...h, rules: [rule({ apiGroups: ['apps'] })] }),
        attrs({ namespace: 'gone' }),
        ns,
      ),
    ).toBe(false);
  });
});
