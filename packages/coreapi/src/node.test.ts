import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import type { Node } from './node-schema.js';
import { nodeStatusView, nodeView } from './node-view.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const now = new Date('2024-05-01T12:00:00Z');

function node(body: Record<string, unknown> = {}): Node {
  const n = nodeView.decode({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, ...body }).object;
  nodeView.prepareForCreate(n);
  n.metadata.uid = 'u';
  n.metadata.resourceVersion = '3';
  n.metadata.creationTimestamp = '2024-05-01T10:00:00Z';
  return n;
}

describe('Node decode and encode', () => {
  it('writes the zero status structs Go writes and defaults allocatable to capacity', () => {
    const out = nodeView.encode(node({ status: { capacity: { cpu: '4000m', memory: '8Gi', pods: 110 } } }));
    expect(out['spec']).toEqual({});
    expect(out['status']).toEqual({
      capacity: { cpu: '4', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '8Gi', pods: '110' },
      daemonEndpoints: { kubeletEndpoint: { Port: 0 } },
      nodeInfo: {
        machineID: '',
        systemUUID: '',
        bootID: '',
        kernelVersion: '',
        osImage: '',
        containerRuntimeVersion: '',
        kubeletVersion: '',
        kubeProxyVersion: '',
        operatingSystem: '',
        architecture: '',
      },
    });
  });

  it('refuses a malformed quantity with a 400', () => {
    expect(() => nodeView.decode({ status: { capacity: { cpu: 'four' } } })).toThrow(
      `Node in version "v1" cannot be handled as a Node: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });
});

describe('Node validation', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a valid node', { spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] } }, []],
    ['a taint without effect', { spec: { taints: [{ key: 'k' }] } }, ['metadata.taints[0].effect: Required value']],
    [
      'a taint with an unknown effect',
      { spec: { taints: [{ key: 'k', effect: 'Sometimes' }] } },
      ['metadata.taints[0].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"'],
    ],
    [
      'duplicate taints',
      { spec: { taints: [{ key: 'k', effect: 'NoSchedule' }, { key: 'k', value: 'v', effect: 'NoSchedule' }] } },
      ['metadata.taints[1]: Duplicate value: {"Key":"k","Value":"v","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair'],
    ],
    [
      'an empty taint key',
      { spec: { taints: [{ effect: 'NoExecute' }] } },
      [
        'metadata.taints[0].key: Invalid value: "": name part must be non-empty',
        `metadata.taints[0].key: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'negative and fractional quantities',
      { status: { capacity: { cpu: '-1', pods: '1500m' } } },
      [
        'status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0',
        'status.capacity.pods: Invalid value: "1500m": must be an integer',
        'status.allocatable.cpu: Invalid value: "-1": must be greater than or equal to 0',
        'status.allocatable.pods: Invalid value: "1500m": must be an integer',
      ],
    ],
    ['a namespace', { metadata: { name: 'n1', namespace: 'x' } }, ['metadata.namespace: Forbidden: not allowed on this type']],
  ])('%s', (_name, body, errors) => {
    expect(strings(nodeView.validateCreate(node(body)))).toEqual(errors);
  });
});

describe('Node updates', () => {
  const old = node({ spec: { providerID: 'aws://1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } });

  it('main updates keep the status; status updates keep the spec', () => {
    const main = node({ spec: { unschedulable: true, providerID: 'aws://1' }, status: { conditions: [] } });
    nodeView.prepareForUpdate(main, old);
    expect([main.spec?.unschedulable, main.status?.conditions]).toEqual([true, [{ type: 'Ready', status: 'True' }]]);
    const status = node({ spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }] } });
    nodeStatusView.prepareForUpdate(status, old);
    expect([status.spec?.unschedulable, status.status?.conditions?.[0]?.status]).toEqual([undefined, 'False']);
  });

  it.each<[string, Record<string, unknown>, string[]]>([
    ['no change', { spec: { providerID: 'aws://1' } }, []],
    ['a new providerID', { spec: { providerID: 'aws://2' } }, ['spec.providerID: Forbidden: node updates may not change providerID except from "" to valid']],
    [
      'duplicate addresses',
      { spec: { providerID: 'aws://1' }, status: { addresses: [{ type: 'InternalIP', address: '10.0.0.1' }, { type: 'InternalIP', address: '10.0.0.1' }] } },
      ['status.addresses[1]: Duplicate value: {"Type":"InternalIP","Address":"10.0.0.1"}'],
    ],
  ])('%s', (_name, body, errors) => {
    expect(strings(nodeStatusView.validateUpdate(node(body), old))).toEqual(errors);
  });
});

describe('Node fields and table', () => {
  it.each<[Record<string, unknown>, string]>([
    [{}, 'false'],
    [{ unschedulable: true }, 'true'],
  ])('spec.unschedulable of %j is %s', (spec, value) => {
    expect(nodeView.fields(node({ spec }))).toEqual({ 'metadata.name': 'n1', 'spec.unschedulable': value });
  });

  it('refuses other labels', () => {
    expect(() => nodeView.convertFieldLabel('spec.providerID', 'x')).toThrow('field label not supported: spec.providerID');
  });

  it.each<[string, Record<string, unknown>, unknown[]]>([
    ['no conditions', {}, ['n1', 'Unknown', '<none>', '120m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>']],
    [
      'a ready control-plane node',
      {
        metadata: { name: 'n1', labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master' } },
        status: {
          conditions: [{ type: 'Ready', status: 'True' }],
          addresses: [{ type: 'InternalIP', address: '10.0.0.1' }],
          nodeInfo: { kubeletVersion: 'v1.34.1', osImage: 'Debian', kernelVersion: '6.1', containerRuntimeVersion: 'containerd://1.7' },
        },
      },
      ['n1', 'Ready', 'control-plane,master', '120m', 'v1.34.1', '10.0.0.1', '<none>', 'Debian', '6.1', 'containerd://1.7'],
    ],
    [
      'a cordoned, not ready node',
      { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } },
      ['n1', 'NotReady,SchedulingDisabled', '<none>', '120m', '', '<none>', '<none>', '<unknown>', '<unknown>', '<unknown>'],
    ],
  ])('%s', (_name, body, cells) => {
    expect(nodeView.tableRow(node(body), now)).toEqual(cells);
  });
});
