/**
 * MutatingAdmissionWebhook (upstream's mutating dispatcher): the matching webhooks are called
 * one after another, each seeing what the ones before made of the object; a JSON patch in an
 * answer is applied to the object's wire form and decoded back into the object the registry
 * holds. A webhook with reinvocationPolicy IfNeeded is called once more when a webhook after it
 * changed the object.
 */
import { applyJsonPatch, internalError, StatusError, type JsonValue } from '@keel/apimachinery';
import { sameJson } from '@keel/resource';
import type { AdmissionAttributes } from '../../attributes.js';
import type { AdmissionPlugin } from '../../plugin.js';
import { callWebhook, type CallContext } from './call.js';
import { configuredWebhooks, type ConfiguredWebhook } from './config.js';
import { CallFailure, failedClosed } from './errors.js';
import { isExemptResource, shouldCall } from './match.js';
import { observeCall } from './observe.js';
import type { WebhookPluginDeps } from './plugin-deps.js';
import type { ReviewResponse } from './review.js';
import { replaceContents, wireCodecOf } from './wire.js';

const MUTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
const PATCH_PREFIX = 'patch.webhook.admission.k8s.io/';
const FAILED_OPEN_PREFIX = 'failed-open.mutation.webhook.admission.k8s.io/';

/** What one request's rounds remember (upstream's webhookReinvokeContext). */
interface Reinvocation {
  /** IfNeeded webhooks called since the object last changed. */
  previouslyInvoked: Set<string>;
  /** Webhooks to call again in the second round. */
  reinvoke: Set<string>;
  changed: boolean;
}

function causeText(err: unknown): string {
  const cause = err instanceof StatusError && err.cause instanceof Error ? err.cause : err;
  return cause instanceof Error ? cause.message : String(cause);
}

/** Applies the answer's patch; true when the object changed. */
function applyPatch(
  ctx: CallContext,
  attrs: AdmissionAttributes,
  webhook: ConfiguredWebhook,
  response: ReviewResponse,
  annotate: (key: string, value: unknown) => void,
): boolean {
  const name = webhook.spec.name;
  if (response.patch === undefined) return false;
  let ops: unknown;
  try {
    ops = JSON.parse(response.patch);
  } catch (err) {
    throw new CallFailure(name, `received undecodable patch in webhook response: ${causeText(err)}`, 503);
  }
  if (!Array.isArray(ops))
    throw new CallFailure(
      name,
      'received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
      503,
    );
  if (ops.length === 0) return false;
  if (!attrs.object)
    throw internalError(
      new Error(
        `admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`,
      ),
    );
  const before = ctx.codec.encode(attrs.object);
  let patched: JsonValue;
  try {
    patched = applyJsonPatch(before as JsonValue, ops);
  } catch (err) {
    throw internalError(new Error(causeText(err)));
  }
  annotate(PATCH_PREFIX, {
    configuration: webhook.configurationName,
    webhook: name,
    patch: ops,
    patchType: 'JSONPatch',
  });
  let decoded;
  try {
    decoded = ctx.codec.decode(patched);
  } catch (err) {
    throw internalError(new Error(err instanceof Error ? err.message : String(err)));
  }
  const changed = !sameJson(ctx.codec.encode(decoded), before);
  replaceContents(attrs.object, decoded);
  return changed;
}

async function runRound(
  deps: WebhookPluginDeps,
  ctx: CallContext,
  attrs: AdmissionAttributes,
  hooks: readonly ConfiguredWebhook[],
  round: number,
  state: Reinvocation,
): Promise<void> {
  for (const [index, webhook] of hooks.entries()) {
    const hook = webhook.spec;
    if (!(await shouldCall(hook, attrs, deps.namespaces))) continue;
    // A webhook skipped in the first round is not called for the first time in the second.
    if (round === 1 && !state.reinvoke.has(webhook.uid)) continue;
    const suffix = `round_${round}_index_${index}`;
    const annotate = (prefix: string, value: unknown) =>
      attrs.addAnnotation?.(prefix + suffix, typeof value === 'string' ? value : JSON.stringify(value));
    let changed = false;
    let failure: CallFailure | undefined;
    try {
      changed = await observeCall(deps.metrics, hook, 'admit', attrs.operation, async () =>
        applyPatch(ctx, attrs, webhook, await callWebhook(ctx, webhook, attrs, true), annotate),
      );
    } catch (err) {
      if (!(err instanceof CallFailure)) {
        annotate(MUTATION_PREFIX, {
          configuration: webhook.configurationName,
          webhook: hook.name,
          mutated: false,
        });
        throw err;
      }
      failure = err;
    }
    annotate(MUTATION_PREFIX, {
      configuration: webhook.configurationName,
      webhook: hook.name,
      mutated: changed,
    });
    if (changed) {
      for (const uid of state.previouslyInvoked) state.reinvoke.add(uid);
      state.previouslyInvoked.clear();
      state.changed = true;
    }
    if (hook.reinvocationPolicy === 'IfNeeded') state.previouslyInvoked.add(webhook.uid);
    if (!failure) continue;
    if (hook.failurePolicy !== 'Ignore') throw failedClosed(failure);
    annotate(FAILED_OPEN_PREFIX, hook.name);
  }
}

export function mutatingWebhookPlugin(deps: WebhookPluginDeps): AdmissionPlugin {
  return {
    name: 'MutatingAdmissionWebhook',
    handles: () => true,
    async admit(attrs) {
      if (isExemptResource(attrs)) return;
      const hooks = configuredWebhooks(deps.configurations);
      if (hooks.length === 0) return;
      const ctx: CallContext = { clients: deps.clients, codec: wireCodecOf(attrs) };
      const state: Reinvocation = { previouslyInvoked: new Set(), reinvoke: new Set(), changed: false };
      await runRound(deps, ctx, attrs, hooks, 0, state);
      if (state.changed && state.reinvoke.size > 0) await runRound(deps, ctx, attrs, hooks, 1, state);
    },
  };
}
