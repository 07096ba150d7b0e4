/**
 * What admission reports to the server's metrics, and the decorators that time the chain's
 * steps and plugins (kube's WithStepMetrics and WithControllerMetrics). The package knows no
 * registry: the server passes an implementation that keeps kube's metric names and labels.
 */
// The module's binding, not the global: `globalThis.performance` is an accessor, and a write
// reads the clock twice for each of a dozen plugins.
import { performance } from 'node:perf_hooks';
import type { AdmissionAttributes, Operation } from './attributes.js';
import type { Admission, AdmissionPlugin } from './plugin.js';

/** The `type` label of steps and plugins. */
export type AdmissionPhase = 'admit' | 'validate';
/** The `type` label of webhook calls: kube's validating dispatcher says `validating`. */
export type WebhookPhase = 'admit' | 'validating';
/** Why a webhook call refused a request (kube's WebhookRejectionErrorType). */
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

/** Latencies under fixed name labels; implementations keep one series per label set. */
export interface LatencyObserver<T extends string> {
  observe(type: T, operation: Operation, rejected: boolean, seconds: number): void;
}

export interface AdmissionMetrics {
  /** A whole phase of one write. */
  readonly step: LatencyObserver<AdmissionPhase>;
  /** One configured plugin; asked once per plugin while the chain is built. */
  controller(name: string): LatencyObserver<AdmissionPhase>;
  /** One webhook's calls, by the webhook's name. */
  webhook(name: string): LatencyObserver<WebhookPhase>;
  /** A webhook call that refused a write; `code` is the status kube attaches, 0 when none. */
  webhookRejection(
    name: string,
    type: WebhookPhase,
    operation: Operation,
    errorType: WebhookRejectionErrorType,
    code: number,
  ): void;
}

const ignore = { observe: () => undefined };

/** For callers that keep no metrics (tests, tools). */
export const noAdmissionMetrics: AdmissionMetrics = {
  step: ignore,
  controller: () => ignore,
  webhook: () => ignore,
  webhookRejection: () => undefined,
};

/** Seconds since `start`, a performance.now() reading. */
export function secondsSince(start: number): number {
  return (performance.now() - start) / 1000;
}

type Phase = (attrs: AdmissionAttributes) => void | Promise<void>;

/**
 * `run` timed into `observer`: refused when it throws. A synchronous plugin stays synchronous,
 * so timing adds no promise to a write that needs none.
 */
function timed(run: Phase, type: AdmissionPhase, observer: LatencyObserver<AdmissionPhase>): Phase {
  return (attrs) => {
    const start = performance.now();
    let result: void | Promise<void>;
    try {
      result = run(attrs);
    } catch (err) {
      observer.observe(type, attrs.operation, true, secondsSince(start));
      throw err;
    }
    if (!(result instanceof Promise)) {
      observer.observe(type, attrs.operation, false, secondsSince(start));
      return;
    }
    return result.then(
      () => observer.observe(type, attrs.operation, false, secondsSince(start)),
      (err: unknown) => {
        observer.observe(type, attrs.operation, true, secondsSince(start));
        throw err;
      },
    );
  };
}

/** `plugin` with each phase it has timed; the chain only calls it for operations it handles. */
export function withControllerMetrics(
  plugin: AdmissionPlugin,
  observer: LatencyObserver<AdmissionPhase>,
): AdmissionPlugin {
  return {
    name: plugin.name,
    handles: (operation) => plugin.handles(operation),
    ...(plugin.admit ? { admit: timed((attrs) => plugin.admit?.(attrs), 'admit', observer) } : {}),
    ...(plugin.validate
      ? { validate: timed((attrs) => plugin.validate?.(attrs), 'validate', observer) }
      : {}),
  };
}

/**
 * `admission` with each phase timed as one step. A write no plugin handles is not a step, as
 * kube's handlers skip a chain that does not handle the operation.
 */
export function withStepMetrics(admission: Admission, observer: LatencyObserver<AdmissionPhase>): Admission {
  const admit = timed((attrs) => admission.admit(attrs), 'admit', observer);
  const validate = timed((attrs) => admission.validate(attrs), 'validate', observer);
  return {
    handles: (operation) => admission.handles(operation),
    admit: (attrs) =>
      admission.handles(attrs.operation) ? Promise.resolve(admit(attrs)) : admission.admit(attrs),
    validate: (attrs) =>
      admission.handles(attrs.operation) ? Promise.resolve(validate(attrs)) : admission.validate(attrs),
  };
}
