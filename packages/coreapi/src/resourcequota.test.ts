import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { resourceQuotaStatusView, resourceQuotaView, type ResourceQuota } from './resourcequota.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function rq(spec: unknown, status?: unknown): ResourceQuota {
  const q = resourceQuotaView.decode({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'default' }, spec, status }).object;
  q.metadata.uid = 'u';
  q.metadata.resourceVersion = '1';
  q.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
  return q;
}

describe('ResourceQuota', () => {
  it.each<[string, unknown, string[]]>([
    ['a valid quota', { hard: { pods: '10', 'requests.cpu': '2', 'count/configmaps': '5' } }, []],
    ['a non-quota resource', { hard: { storage: '1Gi' } }, ['spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota']],
    ['an unknown name', { hard: { bogus: '1' } }, [
      'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource type or fully qualified',
      'spec.hard[bogus]: Invalid value: "bogus": must be a standard resource for quota',
    ]],
    ['a fractional count', { hard: { pods: '1500m' } }, ['spec.hard[pods]: Invalid value: "1500m": must be an integer']],
    ['a negative quantity', { hard: { cpu: '-1' } }, ['spec.hard[cpu]: Invalid value: "-1": must be greater than or equal to 0']],
    ['conflicting scopes', { hard: { pods: '1' }, scopes: ['BestEffort', 'NotBestEffort'] }, ['spec.scopes: Invalid value: ["BestEffort","NotBestEffort"]: conflicting scopes']],
    ['a scope that does not fit', { hard: { configmaps: '1' }, scopes: ['Terminating'] }, ['spec.scopes: Invalid value: ["Terminating"]: unsupported scope applied to resource']],
    ['an unknown scope', { hard: { pods: '1' }, scopes: ['Sometimes'] }, ['spec.scopes: Invalid value: ["Sometimes"]: unsupported scope']],
    ['a selector without values', { hard: { pods: '1' }, scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In' }] } }, [
      "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
    ]],
  ])('%s', (_name, spec, errors) => {
    expect(strings(resourceQuotaView.validateCreate(rq(spec)))).toEqual(errors);
  });

  it('keeps the scopes on update', () => {
    const old = rq({ hard: { pods: '1' }, scopes: ['BestEffort'] });
    const next = rq({ hard: { pods: '1' }, scopes: ['NotBestEffort'] });
    expect(strings(resourceQuotaView.validateUpdate(next, old))).toEqual(['spec.scopes: Invalid value: ["NotBestEffort"]: field is immutable']);
  });

  it('clears the status on create and keeps it on a spec update; the status subresource keeps the spec', () => {
    const q = rq({ hard: { pods: '1' } }, { used: { pods: '1' } });
    resourceQuotaView.prepareForCreate(q);
    expect(q.status).toBeUndefined();
    const old = rq({ hard: { pods: '1' } }, { hard: { pods: '1' }, used: { pods: '0' } });
    const next = rq({ hard: { pods: '2' } }, { used: { pods: '9' } });
    resourceQuotaView.prepareForUpdate(next, old);
    expect(next.status).toEqual({ hard: { pods: '1' }, used: { pods: '0' } });
    const status = rq({ hard: { pods: '5' } }, { hard: { pods: '1' }, used: { pods: '1' } });
    resourceQuotaStatusView.prepareForUpdate(status, old);
    expect(status.spec).toEqual({ hard: { pods: '1' } });
  });

  it('prints used/hard, limits apart from the rest', () => {
    const q = rq({}, { hard: { pods: '10', 'limits.cpu': '2', 'requests.memory': '1Gi' }, used: { pods: '3', 'limits.cpu': '500m' } });
    expect(resourceQuotaView.tableColumns.map((c) => c.name)).toEqual(['Name', 'Age', 'Request', 'Limit']);
    expect(resourceQuotaView.tableRow(q, new Date('2024-05-01T10:01:00Z'))).toEqual(['q', '60s', 'pods: 3/10, requests.memory: 0/1Gi', 'limits.cpu: 500m/2']);
  });
});
