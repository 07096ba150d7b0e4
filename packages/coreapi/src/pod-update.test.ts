import { describe, expect, it } from 'vitest';
import { cloneJson, fieldErrorString, type FieldError } from '@keel/apimachinery';
import { podStatusView, podView } from './pod-view.js';
import type { Pod } from './pod-types.js';
import { podUpdateForbiddenMessage } from './pod-update-validation.js';
import { createdPod, decodedPod } from './testing/pods.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

/** A PUT body: the stored pod as the client sends it back, with `edit` applied to its spec. */
function put(old: Pod, edit: (spec: Record<string, unknown>) => void): Pod {
  const body = podView.encode(old);
  edit(body['spec'] as Record<string, unknown>);
  const next = decodedPod(body);
  podView.prepareForUpdate(next, old);
  return next;
}

describe('Pod update', () => {
  const old = createdPod({ tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 10 }] });

  it.each<[string, (s: Record<string, unknown>) => void, string[]]>([
    ['no change', () => undefined, []],
    ['a new image', (s) => ((s['containers'] as Record<string, unknown>[])[0]!['image'] = 'nginx:1.26'), []],
    ['an added toleration', (s) => (s['tolerations'] as unknown[]).push({ operator: 'Exists' }), []],
    ['a changed tolerationSeconds', (s) => ((s['tolerations'] as Record<string, unknown>[])[0]!['tolerationSeconds'] = 20), []],
    ['a removed toleration', (s) => (s['tolerations'] = []), ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']],
    ['an added container', (s) => (s['containers'] as unknown[]).push({ name: 'b', image: 'x' }), ['spec.containers: Forbidden: pod updates may not add or remove containers']],
    ['an empty image', (s) => ((s['containers'] as Record<string, unknown>[])[0]!['image'] = ''), ['spec.containers[0].image: Required value', 'spec.containers[0].image: Required value']],
    ['a new scheduling gate', (s) => (s['schedulingGates'] = [{ name: 'example.com/g' }]), ["spec.schedulingGates[0].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/g'"]],
  ])('%s', (_name, edit, errors) => {
    expect(strings(podView.validateUpdate(put(old, edit), old))).toEqual(errors);
  });

  it('refuses setting spec.nodeName (only pods/binding sets it)', () => {
    const errs = podView.validateUpdate(put(old, (s) => (s['nodeName'] = 'n1')), old);
    expect(errs).toHaveLength(1);
    expect(errs[0]?.field).toBe('spec');
    expect(errs[0]?.type).toBe('FieldValueForbidden');
    expect(errs[0]?.detail).toBe(`${podUpdateForbiddenMessage}\n  core.PodSpec{\n- \tNodeName: "",\n+ \tNodeName: "n1",\n  }\n`);
  });

  it('refuses changing spec.nodeName of a bound pod', () => {
    const bound = cloneJson(old);
    bound.spec = { ...bound.spec, nodeName: 'n1' };
    const errs = podView.validateUpdate(put(bound, (s) => (s['nodeName'] = 'n2')), bound);
    expect(errs[0]?.detail.startsWith(podUpdateForbiddenMessage)).toBe(true);
  });

  it('keeps the stored status and bumps generation only for spec changes', () => {
    const stored = cloneJson(old);
    stored.status = { ...stored.status, phase: 'Running' };
    const same = put(stored, () => undefined);
    same.status = { phase: 'Failed' };
    podView.prepareForUpdate(same, stored);
    expect(same.status?.phase).toBe('Running');
    expect(same.metadata.generation).toBe(1);
    const changed = put(stored, (s) => ((s['containers'] as Record<string, unknown>[])[0]!['image'] = 'nginx:2'));
    expect(changed.metadata.generation).toBe(2);
  });
});

describe('pods/status update', () => {
  const old = createdPod({}, { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n', uid: 'u' }] });

  function statusPut(edit: (pod: Record<string, unknown>) => void): Pod {
    const body = podView.encode(old);
    edit(body);
    const next = decodedPod(body);
    podStatusView.prepareForUpdate(next, old);
    return next;
  }

  it('changes only the status: spec and ownerReferences stay', () => {
    const next = statusPut((b) => {
      (b['spec'] as Record<string, unknown>)['nodeName'] = 'sneaky';
      (b['metadata'] as Record<string, unknown>)['ownerReferences'] = [];
      b['status'] = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
    });
    expect(next.spec?.nodeName).toBeUndefined();
    expect(next.metadata.ownerReferences).toEqual(old.metadata.ownerReferences);
    expect(next.status).toEqual({ phase: 'Running', qosClass: 'BestEffort', conditions: [{ type: 'Ready', status: 'True' }] });
    expect(strings(podStatusView.validateUpdate(next, old))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['a custom condition type', { conditions: [{ type: 'example.com/ok', status: 'True' }] }, []],
    [
      'an invalid condition type',
      { conditions: [{ type: 'bad type', status: 'True' }] },
      [
        `metadata.conditions[0].Type: Invalid value: "bad type": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    ['a bad pod IP', { podIPs: [{ ip: '10.0.0.300' }] }, ['status.podIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']],
    ['an IPv6 pod IP', { podIPs: [{ ip: 'fd00::1' }] }, []],
  ])('%s', (_name, status, errors) => {
    const next = statusPut((b) => (b['status'] = status));
    expect(strings(podStatusView.validateUpdate(next, old))).toEqual(errors);
  });

  it('serves get, patch and update only', () => {
    expect(podStatusView.verbs).toEqual(['get', 'patch', 'update']);
  });
});
