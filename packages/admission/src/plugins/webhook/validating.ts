/**
 * ValidatingAdmissionWebhook (upstream's validating dispatcher): every matching webhook is
 * called at once; the first refusal or failure, in the webhooks' order, is the answer.
 */
import type { AdmissionPlugin } from '../../plugin.js';
import { callWebhook, type CallContext } from './call.js';
import { configuredWebhooks } from './config.js';
import { CallFailure, failedClosed } from './errors.js';
import { isExemptResource, shouldCall } from './match.js';
import { observeCall } from './observe.js';
import type { WebhookPluginDeps } from './plugin-deps.js';
import { wireCodecOf } from './wire.js';

const FAILED_OPEN_PREFIX = 'failed-open.validating.webhook.admission.k8s.io/';

export function validatingWebhookPlugin(deps: WebhookPluginDeps): AdmissionPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    handles: () => true,
    async validate(attrs) {
      if (isExemptResource(attrs)) return;
      const hooks = configuredWebhooks(deps.configurations);
      if (hooks.length === 0) return;
      const ctx: CallContext = { clients: deps.clients, codec: wireCodecOf(attrs) };
      const matched: { index: number; webhook: (typeof hooks)[number] }[] = [];
      for (const [index, webhook] of hooks.entries())
        if (await shouldCall(webhook.spec, attrs, deps.namespaces)) matched.push({ index, webhook });
      const outcomes = await Promise.all(
        matched.map(async ({ index, webhook }): Promise<Error | undefined> => {
          try {
            await observeCall(deps.metrics, webhook.spec, 'validating', attrs.operation, () =>
              callWebhook(ctx, webhook, attrs, false),
            );
            return undefined;
          } catch (err) {
            if (!(err instanceof CallFailure)) return err instanceof Error ? err : new Error(String(err));
            if (webhook.spec.failurePolicy !== 'Ignore') return failedClosed(err);
            attrs.addAnnotation?.(`${FAILED_OPEN_PREFIX}round_0_index_${index}`, webhook.spec.name);
            return undefined;
          }
        }),
      );
      const first = outcomes.find((e) => e !== undefined);
      if (first) throw first;
    },
  };
}
