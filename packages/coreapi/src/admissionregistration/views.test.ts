import { fieldErrorString, type FieldError } from '@keel/apimachinery';
import { describe, expect, it } from 'vitest';
import { mutatingWebhookConfigurationView as mutating, validatingWebhookConfigurationView as validating } from './index.js';

type Json = Record<string, unknown>;

const messages = (errs: FieldError[]) => errs.map((e) => fieldErrorString(e));

const hook = (over: Json = {}): Json => ({
  name: 'w.keel.test',
  clientConfig: { url: 'https://hook.example/x' },
  rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...over,
});

const decode = (view: typeof mutating, webhooks: Json[]) =>
  view.decode({ apiVersion: 'admissionregistration.k8s.io/v1', kind: view.kind, metadata: { name: 'c' }, webhooks }).object;

const createErrors = (webhooks: Json[], view = validating) => messages(view.validateCreate(decode(view, webhooks)));

describe('webhook configuration validation', () => {
  it('accepts a valid webhook', () => {
    expect(createErrors([hook()])).toEqual([]);
    expect(createErrors([hook({ reinvocationPolicy: 'IfNeeded' })], mutating)).toEqual([]);
  });

  it.each([
    ['a short name', hook({ name: 'w.x' }), ['webhooks[0].name: Invalid value: "w.x": should be a domain with at least three segments separated by dots']],
    ['no name', hook({ name: '' }), ['webhooks[0].name: Required value']],
    ['both url and service', hook({ clientConfig: { url: 'https://a.b/c', service: { namespace: 'n', name: 's' } } }), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']],
    ['a url with user and fragment', hook({ clientConfig: { url: 'https://me@host/x#frag' } }), [
      'webhooks[0].clientConfig.url: Invalid value: "me": user information is not permitted in the URL',
      'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
    ]],
    ['a url without host', hook({ clientConfig: { url: 'https:///x' } }), ['webhooks[0].clientConfig.url: Invalid value: "": host must be provided; desired format: https://host[/path]']],
    ['a bad service', hook({ clientConfig: { service: { namespace: '', name: '', port: 70000, path: 'x//y' } } }), [
      'webhooks[0].clientConfig.service.name: Required value: service name is required',
      'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
      'webhooks[0].clientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
      'webhooks[0].clientConfig.service.path: Invalid value: "x//y": must start with a \'/\'',
      // Go drops the first character whatever it is: "/y" splits into two empty segments.
      'webhooks[0].clientConfig.service.path: Invalid value: "x//y": segment[0] may not be empty',
      'webhooks[0].clientConfig.service.path: Invalid value: "x//y": segment[1] may not be empty',
    ]],
    ['wildcard resources mixed', hook({ rules: [{ operations: ['*', 'CREATE'], apiGroups: [''], apiVersions: ['v1', ''], resources: ['*', 'pods', 'pods/*', 'pods/status'] }] }), [
      'webhooks[0].rules[0].operations: Invalid value: ["*","CREATE"]: if \'*\' is present, must not specify other operations',
      'webhooks[0].rules[0].apiVersions[1]: Required value',
      'webhooks[0].rules[0].resources[3]: Invalid value: "pods/status": if \'pods/*\' is present, must not specify pods/status',
      'webhooks[0].rules[0].resources: Invalid value: ["*","pods","pods/*","pods/status"]: if \'*\' is present, must not specify other resources without subresources',
    ]],
    ['a bad scope', hook({ rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], scope: 'Galaxy' }] }), ['webhooks[0].rules[0].scope: Unsupported value: "Galaxy": supported values: "*", "Cluster", "Namespaced"']],
    ['unknown and duplicate review versions', hook({ admissionReviewVersions: ['v2', 'v2'] }), [
      'webhooks[0].admissionReviewVersions[1]: Invalid value: "v2": duplicate version',
      'webhooks[0].admissionReviewVersions: Invalid value: ["v2","v2"]: must include at least one of v1, v1beta1',
    ]],
    ['a bad selector', hook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }), ['webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is \'In\' or \'NotIn\'']],
    ['match conditions', hook({ matchConditions: [{ name: 'x', expression: 'true' }] }), ['webhooks[0].matchConditions: Forbidden: matchConditions (CEL) are not supported by this server']],
  ])('refuses %s', (_what, webhook, want) => {
    expect(createErrors([webhook])).toEqual(want);
  });

  it('refuses a bad reinvocationPolicy on mutating webhooks only', () => {
    expect(createErrors([hook({ reinvocationPolicy: 'Always' })], mutating)).toEqual([
      'webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ]);
  });

  it('lets an update keep what the stored object already had', () => {
    const old = decode(validating, [hook(), hook()]);
    old.webhooks = [{ ...(old.webhooks?.[0] as NonNullable<typeof old.webhooks>[number]), sideEffects: 'Some' }, ...(old.webhooks ?? []).slice(1)];
    old.metadata.resourceVersion = '1';
    const next = decode(validating, [hook({ sideEffects: 'Some' }), hook()]);
    next.metadata.resourceVersion = '1';
    expect(messages(validating.validateUpdate(next, old))).toEqual([]);
    const fresh = decode(validating, [hook()]);
    fresh.metadata.resourceVersion = '1';
    const refused = decode(validating, [hook({ sideEffects: 'Some' })]);
    refused.metadata.resourceVersion = '1';
    expect(messages(validating.validateUpdate(refused, fresh))).toEqual([
      'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
    ]);
  });
});
