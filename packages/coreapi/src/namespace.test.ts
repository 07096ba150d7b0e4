import { describe, expect, it } from 'vitest';
import { fieldErrorString, StatusError, type FieldError } from '@keel/apimachinery';
import { namespaceView, type Namespace } from './namespace.js';

const strings = (errs: FieldError[]): string[] => errs.map(fieldErrorString);

function decoded(body: unknown): Namespace {
  return namespaceView.decode(body).object;
}

function created(body: Record<string, unknown>): Namespace {
  const ns = decoded({ apiVersion: 'v1', kind: 'Namespace', ...body });
  namespaceView.prepareForCreate(ns);
  return ns;
}

describe('Namespace decode, defaults and encode', () => {
  it('defaults the phase and the name label, and writes Go zero structs', () => {
    const ns = created({ metadata: { name: 'team-a' } });
    expect(namespaceView.encode(ns)).toEqual({
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { name: 'team-a', creationTimestamp: null, labels: { 'kubernetes.io/metadata.name': 'team-a' } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('keeps other finalizers and appends kubernetes', () => {
    const ns = created({ metadata: { name: 'a' }, spec: { finalizers: ['example.com/x'] } });
    expect(ns.spec?.finalizers).toEqual(['example.com/x', 'kubernetes']);
  });

  it('ignores a client status on create', () => {
    const ns = created({ metadata: { name: 'a' }, status: { phase: 'Terminating' } });
    expect(ns.status).toEqual({ phase: 'Active' });
  });

  it.each<[string, unknown, string]>([
    ['a wrong kind', { apiVersion: 'v1', kind: 'Pod' }, 'Pod in version "v1" cannot be handled as a Namespace: converting (k8s.io/api/core/v1) Pod to (k8s.io/kubernetes/pkg/apis/core) Namespace: unknown conversion'],
    ['an unknown kind', { apiVersion: 'v1', kind: 'Nope' }, 'Nope in version "v1" cannot be handled as a Namespace: no kind "Nope" is registered for version "v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"'],
    ['a wrong field type', { spec: { finalizers: 'kubernetes' } }, 'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal string into Go struct field NamespaceSpec.spec.finalizers of type []v1.FinalizerName'],
  ])('%s is a 400', (_name, body, message) => {
    expect(() => namespaceView.decode(body)).toThrow(StatusError);
    expect(() => namespaceView.decode(body)).toThrow(message);
  });

  it('reports unknown fields', () => {
    expect(namespaceView.decode({ metadata: { name: 'a' }, spec: { x: 1 } }).unknownFields).toEqual(['spec.x']);
  });
});

describe('Namespace validation', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a valid name', { name: 'team-a' }, []],
    [
      'a name with a dot',
      { name: 'a.b' },
      ['metadata.name: Invalid value: "a.b": must not contain dots'],
    ],
    [
      'an upper-case name',
      { name: 'A' },
      [
        `metadata.name: Invalid value: "A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    ['a namespace in the body', { name: 'a', namespace: 'x' }, ['metadata.namespace: Forbidden: not allowed on this type']],
  ])('%s', (_name, metadata, errors) => {
    const ns = created({ metadata });
    expect(strings(namespaceView.validateCreate(ns))).toEqual(errors);
  });

  it('rejects a non-standard spec finalizer', () => {
    const ns = created({ metadata: { name: 'a' }, spec: { finalizers: ['bogus'] } });
    expect(strings(namespaceView.validateCreate(ns))).toEqual([
      'spec.finalizers: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified',
    ]);
  });

  const stored = (): Namespace => ({
    ...created({ metadata: { name: 'a', uid: 'u', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' } }),
  });

  it('keeps spec and status on a main update', () => {
    const next = decoded({ metadata: { name: 'a', uid: 'u', resourceVersion: '5' }, spec: { finalizers: [] }, status: { phase: 'Terminating' } });
    namespaceView.prepareForUpdate(next, stored());
    expect(next.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(next.status).toEqual({ phase: 'Active' });
  });

  it.each<[string, string | undefined, string, string[]]>([
    ['Active while not deleted', undefined, 'Active', []],
    ['Terminating while not deleted', undefined, 'Terminating', [`status.Phase: Invalid value: "Terminating": may only be 'Active' if \`deletionTimestamp\` is empty`]],
    ['Active while deleted', '2024-01-02T00:00:00Z', 'Active', [`status.Phase: Invalid value: "Active": may only be 'Terminating' if \`deletionTimestamp\` is not empty`]],
  ])('status update: %s', (_name, deletion, phase, errors) => {
    const old = stored();
    if (deletion) old.metadata.deletionTimestamp = deletion;
    const next = decoded({ metadata: { ...old.metadata }, status: { phase } });
    namespaceView.prepareStatusUpdate(next, old);
    expect(strings(namespaceView.validateStatusUpdate(next, old))).toEqual(errors);
  });
});

describe('Namespace fields and table', () => {
  it('exposes metadata.name and status.phase', () => {
    expect(namespaceView.fields(created({ metadata: { name: 'a' } }))).toEqual({ 'metadata.name': 'a', 'status.phase': 'Active' });
  });

  it.each<[string, string]>([
    ['metadata.name', 'metadata.name'],
    ['status.phase', 'status.phase'],
  ])('accepts %s', (label, out) => {
    expect(namespaceView.convertFieldLabel(label, 'x').field).toBe(out);
  });

  it('refuses other labels', () => {
    expect(() => namespaceView.convertFieldLabel('spec.x', 'y')).toThrow('field label not supported: spec.x');
  });

  it('prints Name, Status and Age', () => {
    const ns = created({ metadata: { name: 'a', creationTimestamp: '2024-05-01T10:00:00Z' } });
    expect(namespaceView.tableColumns.map((c) => c.name)).toEqual(['Name', 'Status', 'Age']);
    expect(namespaceView.tableRow(ns, new Date('2024-05-01T10:05:00Z'))).toEqual(['a', 'Active', '5m']);
  });
});
