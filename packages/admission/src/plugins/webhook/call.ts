/**
 * One webhook call as both plugins make it: the dry-run check, the review in the webhook's
 * version with the objects in their wire form, the answer checked, its audit annotations and
 * warnings passed on, a refusal turned into the webhook's Status.
 */
import type { AdmissionAttributes, ObjectCodec } from '../../attributes.js';
import { WebhookCallError, type WebhookClients } from './client.js';
import type { ConfiguredWebhook } from './config.js';
import { CallFailure, dryRunUnsupported, webhookDenied } from './errors.js';
import { admissionReview, reviewVersion, verifyResponse, type ReviewResponse } from './review.js';
import { wireCodecOf } from './wire.js';

const NO_SIDE_EFFECTS = new Set(['None', 'NoneOnDryRun']);

/** The status upstream gives a call the webhook did not answer: its two dispatchers differ. */
function unansweredCode(mutating: boolean): number {
  return mutating ? 503 : 400;
}

export interface CallContext {
  readonly clients: WebhookClients;
  readonly codec: ObjectCodec;
}

/**
 * Calls `webhook` about `attrs` and returns its (allowing) answer. Throws a CallFailure (the
 * failurePolicy decides), or a StatusError: the webhook's refusal, or a dry run it cannot take.
 */
export async function callWebhook(
  ctx: CallContext,
  webhook: ConfiguredWebhook,
  attrs: AdmissionAttributes,
  mutating: boolean,
): Promise<ReviewResponse> {
  const hook = webhook.spec;
  if (attrs.dryRun) {
    if (hook.sideEffects === undefined) throw new CallFailure(hook.name, 'Webhook SideEffects is nil', 400);
    if (!NO_SIDE_EFFECTS.has(hook.sideEffects)) throw dryRunUnsupported(hook.name);
  }
  const version = reviewVersion(hook);
  if (!version)
    throw new CallFailure(
      hook.name,
      'could not create admission objects: webhook does not accept known AdmissionReview versions',
      400,
    );
  const { uid, review } = admissionReview(version, attrs, {
    object: attrs.object && ctx.codec.encode(attrs.object),
    oldObject: attrs.oldObject && ctx.codec.encode(attrs.oldObject),
  });
  let answer: unknown;
  try {
    answer = await ctx.clients.call(hook, review);
  } catch (err) {
    if (err instanceof WebhookCallError)
      throw new CallFailure(hook.name, err.reason, err.statusCode ?? unansweredCode(mutating));
    throw err;
  }
  let response: ReviewResponse;
  try {
    response = verifyResponse(version, uid, answer, mutating);
  } catch (err) {
    throw new CallFailure(
      hook.name,
      `received invalid webhook response: ${err instanceof Error ? err.message : String(err)}`,
      503,
    );
  }
  for (const [k, v] of Object.entries(response.auditAnnotations))
    attrs.addAnnotation?.(`${hook.name}/${k}`, v);
  for (const w of response.warnings) attrs.addWarning?.(w);
  if (!response.allowed) throw webhookDenied(hook.name, response.result);
  return response;
}

export { wireCodecOf };
