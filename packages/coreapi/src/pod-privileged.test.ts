import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { podView, podViewWith } from './pod-view.js';
import { container, createdPod } from './testing/pods.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const privileged = { ...container, securityContext: { privileged: true } };
const spec = { initContainers: [{ ...privileged, name: 'init' }], containers: [privileged] };
const forbidden = [
  'spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
  'spec.initContainers[0].securityContext.privileged: Forbidden: disallowed by cluster policy',
];

describe('--allow-privileged in pod validation', () => {
  it('refuses privileged containers by default, on create and update', () => {
    expect(strings(podView.validateCreate(createdPod(spec))).sort()).toEqual(forbidden);
    const old = createdPod({});
    old.metadata.resourceVersion = '1';
    const next = createdPod({ containers: [privileged] });
    next.metadata.resourceVersion = '1';
    expect(strings(podView.validateUpdate(next, old))).toContain(forbidden[0]);
    expect(strings(podViewWith({ allowPrivileged: false }).validateCreate(createdPod(spec))).sort()).toEqual(forbidden);
  });

  it('admits them when the cluster allows it, and never minds privileged: false', () => {
    expect(strings(podViewWith({ allowPrivileged: true }).validateCreate(createdPod(spec)))).toEqual([]);
    const unprivileged = { ...container, securityContext: { privileged: false } };
    expect(strings(podView.validateCreate(createdPod({ containers: [unprivileged] })))).toEqual([]);
  });
});
