import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { limitRangeView, type LimitRange } from './limitrange.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function lr(limits: unknown[]): LimitRange {
  const l = limitRangeView.decode({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'l', namespace: 'default' }, spec: { limits } }).object;
  l.metadata.uid = 'u';
  l.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
  return l;
}

describe('LimitRange', () => {
  it('defaults a Container item: default limit from max, default request from the default limit, then min', () => {
    const l = lr([{ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' } }]);
    expect(l.spec?.limits[0]).toEqual({ type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '2' }, defaultRequest: { cpu: '2', memory: '64Mi' } });
    expect(lr([{ type: 'Pod', max: { cpu: '2' } }]).spec?.limits[0]).toEqual({ type: 'Pod', max: { cpu: '2' } });
  });

  it('encodes quantities canonically', () => {
    const out = limitRangeView.encode(lr([{ type: 'Container', max: { cpu: '1000m', memory: '1.5Gi' } }]));
    expect(out['spec']).toEqual({ limits: [{ type: 'Container', max: { cpu: '1', memory: '1536Mi' }, default: { cpu: '1', memory: '1536Mi' }, defaultRequest: { cpu: '1', memory: '1536Mi' } }] });
  });

  it.each<[string, unknown[], string[]]>([
    ['a valid range', [{ type: 'Container', min: { cpu: '100m' }, max: { cpu: '1' } }], []],
    ['min over max', [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }], [
      'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
      'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
      'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    ]],
    ['a duplicate type', [{ type: 'Pod', max: { cpu: '1' } }, { type: 'Pod', max: { cpu: '1' } }], ['spec.limits[1].type: Duplicate value: "Pod"']],
    ['an unknown type', [{ type: 'Bogus' }], ['spec.limits[0].type: Invalid value: "Bogus": must be a standard limit type or fully qualified']],
    ['defaults on a Pod item', [{ type: 'Pod', default: { cpu: '1' } }], ["spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"]],
    ['a ratio under 1', [{ type: 'Container', maxLimitRequestRatio: { cpu: '500m' } }], ['spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1']],
    ['a non-container resource', [{ type: 'Pod', max: { pods: '1' } }], ['spec.limits[0].max[pods]: Invalid value: "pods": must be a standard resource for containers']],
    ['a claim item without storage', [{ type: 'PersistentVolumeClaim', max: { cpu: '1' } }], ['spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided']],
  ])('%s', (_name, limits, errors) => {
    expect(strings(limitRangeView.validateCreate(lr(limits)))).toEqual(errors);
  });

  it('prints the name and creation time', () => {
    expect(limitRangeView.tableColumns.map((c) => c.name)).toEqual(['Name', 'Created At']);
    expect(limitRangeView.tableRow(lr([]), new Date())).toEqual(['l', '2024-05-01T10:00:00Z']);
  });
});
