import { describe, expect, it } from 'vitest';
import { applyStrategicMergePatch, type JsonObject } from '@keel/apimachinery';
import { podSmpSchema } from './pod-fields.js';
import { podView } from './pod-view.js';
import { createdPod } from './testing/pods.js';

function patched(patch: unknown, edit?: (wire: JsonObject) => void): JsonObject {
  const base = podView.encode(createdPod({ tolerations: [{ key: 'a', operator: 'Exists' }] })) as JsonObject;
  edit?.(base);
  return applyStrategicMergePatch(base, patch, podSmpSchema);
}

describe('Pod strategic merge patch schema', () => {
  it('merges status.conditions by type (the scheduler PodScheduled=False patch)', () => {
    const out = patched(
      { status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available' }] } },
      (w) => {
        (w['status'] as JsonObject)['conditions'] = [{ type: 'Ready', status: 'False' }, { type: 'PodScheduled', status: 'Unknown' }];
      },
    );
    expect((out['status'] as JsonObject)['conditions']).toEqual([
      { type: 'Ready', status: 'False' },
      { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available' },
    ]);
  });

  it('merges spec.containers by name and their ports by containerPort', () => {
    const out = patched({ spec: { containers: [{ name: 'app', image: 'nginx:2', ports: [{ containerPort: 80 }] }] } });
    const containers = (out['spec'] as JsonObject)['containers'] as JsonObject[];
    expect(containers).toHaveLength(1);
    expect(containers[0]).toMatchObject({ name: 'app', image: 'nginx:2', imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 80 }] });
  });

  it('replaces spec.tolerations', () => {
    const out = patched({ spec: { tolerations: [{ key: 'b', operator: 'Exists' }] } });
    expect((out['spec'] as JsonObject)['tolerations']).toEqual([{ key: 'b', operator: 'Exists' }]);
  });

  // Go puts patch items not on the server before the server-only ones (mergeSortedSlice).
  it('merges metadata.finalizers as a set and deletes a condition by key', () => {
    const out = patched({ metadata: { finalizers: ['a/b'] }, status: { conditions: [{ type: 'Ready', $patch: 'delete' }] } }, (w) => {
      (w['metadata'] as JsonObject)['finalizers'] = ['x/y'];
      (w['status'] as JsonObject)['conditions'] = [{ type: 'Ready', status: 'True' }];
    });
    expect((out['metadata'] as JsonObject)['finalizers']).toEqual(['a/b', 'x/y']);
    expect((out['status'] as JsonObject)['conditions']).toEqual([]);
  });
});
