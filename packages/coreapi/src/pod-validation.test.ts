import { describe, expect, it } from 'vitest';
import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { podView } from './pod-view.js';
import { container, createdPod } from './testing/pods.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);
const errorsFor = (spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): string[] =>
  strings(podView.validateCreate(createdPod(spec, metadata)));

const label1123 = `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;

describe('Pod create validation: containers and resources', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a valid pod', {}, []],
    ['no containers', { containers: [] }, ['spec.containers: Required value']],
    ['a container without name and image', { containers: [{}] }, ['spec.containers[0].name: Required value', 'spec.containers[0].image: Required value']],
    ['an invalid container name', { containers: [{ name: 'App', image: 'x' }] }, [`spec.containers[0].name: Invalid value: "App": ${label1123}`]],
    ['duplicate container names', { containers: [container, container] }, ['spec.containers[1].name: Duplicate value: "app"']],
    [
      'an init container named like a container',
      { initContainers: [container] },
      ['spec.initContainers[0].name: Duplicate value: "app"'],
    ],
    [
      'a negative request',
      { containers: [{ ...container, resources: { requests: { cpu: '-1' } } }] },
      ['spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0'],
    ],
    [
      'a request above its limit',
      { containers: [{ ...container, resources: { requests: { cpu: '2' }, limits: { cpu: '1' } } }] },
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
    ],
    [
      'a non-standard resource',
      { containers: [{ ...container, resources: { requests: { pods: '1' } } }] },
      ['spec.containers[0].resources.requests[pods]: Invalid value: "pods": must be a standard resource for containers'],
    ],
    [
      'an extended resource request without limit',
      { containers: [{ ...container, resources: { requests: { 'example.com/gpu': '1' } } }] },
      ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'],
    ],
    [
      'a fractional extended resource',
      { containers: [{ ...container, resources: { limits: { 'example.com/gpu': '500m' } } }] },
      [
        'spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer',
        'spec.containers[0].resources.requests[example.com/gpu]: Invalid value: "500m": must be an integer',
      ],
    ],
    [
      'a port out of range and a bad protocol',
      { containers: [{ ...container, ports: [{ containerPort: 70000, protocol: 'ICMP' }] }] },
      [
        'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'conflicting host ports',
      { containers: [{ ...container, ports: [{ containerPort: 80, hostPort: 80 }] }, { name: 'b', image: 'x', ports: [{ containerPort: 81, hostPort: 80 }] }] },
      ['spec.containers[1].ports[0].hostPort: Duplicate value: "/TCP/80"'],
    ],
    [
      'a mount of a missing volume',
      { containers: [{ ...container, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] },
      ['spec.containers[0].volumeMounts[0].name: Not found: "data"'],
    ],
    ['a volume without a source', { volumes: [{ name: 'data' }] }, ['spec.volumes[0]: Required value: must specify a volume type']],
    ['a restart policy', { restartPolicy: 'Sometimes' }, ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
    ['ephemeral containers', { ephemeralContainers: [{ name: 'debug' }] }, ['spec.ephemeralContainers: Forbidden: cannot be set on create']],
    [
      'nodeName with scheduling gates',
      { nodeName: 'n1', schedulingGates: [{ name: 'example.com/gate' }] },
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    ],
    ['an active deadline of 0', { activeDeadlineSeconds: 0 }, ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive']],
  ])('%s', (_name, spec, errors) => {
    expect(errorsFor(spec)).toEqual(errors);
  });

  it('reports the generic name rule only once the strategy passed', () => {
    expect(errorsFor({}, { name: 'Bad_Name' })[0]).toMatch(/^metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  });
});

describe('Pod create validation: scheduling shapes', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a valid toleration', { tolerations: [{ key: 'k', operator: 'Equal', value: 'v', effect: 'NoSchedule' }] }, []],
    ['match-all toleration', { tolerations: [{ operator: 'Exists' }] }, []],
    [
      'an empty key with Equal',
      { tolerations: [{ value: 'v' }] },
      ['spec.tolerations[0].operator: Invalid value: "": operator must be Exists when `key` is empty, which means "match all values and all keys"'],
    ],
    [
      'Exists with a value',
      { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] },
      [
        `spec.tolerations[0].operator: Invalid value: {"Key":"k","Operator":"Exists","Value":"v","Effect":"","TolerationSeconds":null}: value must be empty when \`operator\` is 'Exists'`,
      ],
    ],
    [
      'tolerationSeconds without NoExecute',
      { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }] },
      [`spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`],
    ],
    [
      'an unknown effect and operator',
      { tolerations: [{ key: 'k', operator: 'In', effect: 'Never' }] },
      [
        'spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"',
        'spec.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
    ],
    [
      'a bad nodeSelector value',
      { nodeSelector: { disk: 'ssd!' } },
      [
        `spec.nodeSelector: Invalid value: "ssd!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
    ],
    [
      'node affinity without terms',
      { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } } },
      ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term'],
    ],
    [
      'node affinity expressions',
      {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }, { key: 'x', operator: 'Exists', values: ['a'] }, { key: 'y', operator: 'Maybe' }] }],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, preference: {} }],
          },
        },
      },
      [
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].operator: Invalid value: "Maybe": not a valid selector operator',
        'spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      ],
    ],
    [
      'a pod anti-affinity term without topologyKey',
      { affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'web' } } }] } } },
      [
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must be non-empty',
        `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
  ])('%s', (_name, spec, errors) => {
    expect(errorsFor(spec)).toEqual(errors);
  });
});
