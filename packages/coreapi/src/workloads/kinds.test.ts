import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { podDisruptionBudgetViews } from '../policy/poddisruptionbudget.js';
import { accessModesString, persistentVolumeView } from '../storage/volumes.js';
import { replicationControllerView } from './replicaset.js';
import { statefulSetView } from './statefulset.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const [pdbV1] = podDisruptionBudgetViews;

const template = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'i' }] } };

describe('workload and storage kinds', () => {
  it('prints access modes in upstream order and short forms', () => {
    expect(accessModesString(['ReadWriteOncePod', 'ReadOnlyMany', 'ReadWriteOnce'])).toBe('RWO,ROX,RWOP');
    expect(accessModesString(undefined)).toBe('');
  });

  it('refuses a PersistentVolume with two sources and an unknown reclaim policy', () => {
    const pv = persistentVolumeView.decode({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv' },
      spec: {
        capacity: { storage: '1Gi', cpu: '1' },
        accessModes: ['ReadWriteOnce', 'Sometimes'],
        persistentVolumeReclaimPolicy: 'Keep',
        hostPath: { path: '/a' },
        nfs: { server: 's', path: '/b' },
      },
    }).object;
    expect(strings(persistentVolumeView.validateCreate(pv))).toEqual([
      'spec.accessModes: Unsupported value: "Sometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      'spec.capacity: Unsupported value: ["cpu","storage"]: supported values: "storage"',
      'spec.persistentVolumeReclaimPolicy: Unsupported value: "Keep": supported values: "Delete", "Recycle", "Retain"',
      'spec.nfs: Forbidden: may not specify more than 1 volume type',
    ]);
  });

  it('checks PodDisruptionBudget percentages and the minAvailable/maxUnavailable choice', () => {
    const pdb = (spec: Record<string, unknown>) =>
      pdbV1.decode({
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'b', namespace: 'n' },
        spec,
      }).object;
    expect(strings(pdbV1.validateCreate(pdb({ minAvailable: '120%' })))).toEqual([
      'spec.minAvailable: Invalid value: "120%": must not be greater than 100%',
    ]);
    expect(strings(pdbV1.validateCreate(pdb({ maxUnavailable: -1 })))).toEqual([
      'spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
    ]);
    expect(strings(pdbV1.validateCreate(pdb({ minAvailable: '50%' })))).toEqual([]);
  });

  it('refuses a StatefulSet with a bad pod management policy and update strategy', () => {
    const sts = statefulSetView.decode({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's', namespace: 'n' },
      spec: {
        selector: { matchLabels: { app: 'a' } },
        template,
        podManagementPolicy: 'Whenever',
        updateStrategy: { type: 'Sometimes' },
      },
    }).object;
    expect(strings(statefulSetView.validateCreate(sts))).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Whenever\": must be 'OrderedReady' or 'Parallel'",
      "spec.updateStrategy: Invalid value: \"Sometimes\": must be 'RollingUpdate' or 'OnDelete'",
    ]);
  });

  it('refuses a ReplicationController template whose restart policy is not Always', () => {
    const rc = replicationControllerView.decode({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'r', namespace: 'n' },
      spec: { template: { ...template, spec: { ...template.spec, restartPolicy: 'Never' } } },
    }).object;
    expect(rc.spec?.selector).toEqual({ app: 'a' });
    expect(strings(replicationControllerView.validateCreate(rc))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
    ]);
  });
});
