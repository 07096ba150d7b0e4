import type {
  AdmissionMetrics,
  AdmissionPhase,
  LatencyObserver,
  Operation,
  WebhookPhase,
  WebhookRejectionErrorType,
} from '@keel/admission';
import type {
  CounterChild,
  CounterMetric,
  HistogramChild,
  HistogramMetric,
  MetricsRegistry,
} from '@keel/metrics';

/** kube's buckets for steps and plugins: 5 ms to 2.5 s. */
const ADMISSION_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5];
/** Webhooks time out after 30 s by default, so theirs reach 25 s. */
const WEBHOOK_BUCKETS = [0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25];
const OPERATIONS: readonly Operation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];
const ADMISSION_PHASES: readonly AdmissionPhase[] = ['admit', 'validate'];
const WEBHOOK_PHASES: readonly WebhookPhase[] = ['admit', 'validating'];
/** kube's bound on the rejection code label's values. */
const MAX_REJECTION_CODE = 600;

type NamedLabel = 'name' | 'type' | 'operation' | 'rejected';
type ChildFor<T extends string> = (type: T, operation: Operation, rejected: boolean) => HistogramChild;

/**
 * The series of one step or name, each made on first use and then found by index: observing
 * builds no label set.
 */
class LatencySeries<T extends string> implements LatencyObserver<T> {
  private readonly children: (HistogramChild | undefined)[] = [];

  constructor(
    private readonly types: readonly T[],
    private readonly childFor: ChildFor<T>,
  ) {}

  observe(type: T, operation: Operation, rejected: boolean, seconds: number): void {
    const i =
      (this.types.indexOf(type) * OPERATIONS.length + OPERATIONS.indexOf(operation)) * 2 + (rejected ? 1 : 0);
    (this.children[i] ??= this.childFor(type, operation, rejected)).observe(seconds);
  }
}

/** Admission's metrics under kube-apiserver's names (k8s.io/apiserver/pkg/admission/metrics). */
export class ServerAdmissionMetrics implements AdmissionMetrics {
  readonly step: LatencyObserver<AdmissionPhase>;
  private readonly controllers = new Map<string, LatencyObserver<AdmissionPhase>>();
  private readonly webhooks = new Map<string, LatencyObserver<WebhookPhase>>();
  private readonly rejectionChildren = new Map<string, CounterChild>();
  private readonly controllerDuration: HistogramMetric<NamedLabel>;
  private readonly webhookDuration: HistogramMetric<NamedLabel>;
  private readonly rejections: CounterMetric<'name' | 'type' | 'operation' | 'error_type' | 'rejection_code'>;

  constructor(r: MetricsRegistry) {
    const step = r.histogram({
      name: 'apiserver_admission_step_admission_duration_seconds',
      help: 'Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).',
      labelNames: ['type', 'operation', 'rejected'],
      buckets: ADMISSION_BUCKETS,
    });
    this.step = new LatencySeries(ADMISSION_PHASES, (type, operation, rejected) =>
      step.child({ type, operation, rejected: String(rejected) }),
    );
    this.controllerDuration = r.histogram({
      name: 'apiserver_admission_controller_admission_duration_seconds',
      help: 'Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: ADMISSION_BUCKETS,
    });
    this.webhookDuration = r.histogram({
      name: 'apiserver_admission_webhook_admission_duration_seconds',
      help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).',
      labelNames: ['name', 'type', 'operation', 'rejected'],
      buckets: WEBHOOK_BUCKETS,
    });
    this.rejections = r.counter({
      name: 'apiserver_admission_webhook_rejection_count',
      help: 'Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.',
      labelNames: ['name', 'type', 'operation', 'error_type', 'rejection_code'],
    });
  }

  controller(name: string): LatencyObserver<AdmissionPhase> {
    let series = this.controllers.get(name);
    if (!series) {
      const metric = this.controllerDuration;
      series = new LatencySeries(ADMISSION_PHASES, (type, operation, rejected) =>
        metric.child({ name, type, operation, rejected: String(rejected) }),
      );
      this.controllers.set(name, series);
    }
    return series;
  }

  webhook(name: string): LatencyObserver<WebhookPhase> {
    let series = this.webhooks.get(name);
    if (!series) {
      const metric = this.webhookDuration;
      series = new LatencySeries(WEBHOOK_PHASES, (type, operation, rejected) =>
        metric.child({ name, type, operation, rejected: String(rejected) }),
      );
      this.webhooks.set(name, series);
    }
    return series;
  }

  webhookRejection(
    name: string,
    type: WebhookPhase,
    operation: Operation,
    errorType: WebhookRejectionErrorType,
    code: number,
  ): void {
    const rejectionCode = String(Math.min(code, MAX_REJECTION_CODE));
    // Refusals are the uncommon path: a key per call is cheap enough there.
    const key = `${name}\n${type}\n${operation}\n${errorType}\n${rejectionCode}`;
    let child = this.rejectionChildren.get(key);
    if (!child) {
      child = this.rejections.child({
        name,
        type,
        operation,
        error_type: errorType,
        rejection_code: rejectionCode,
      });
      this.rejectionChildren.set(key, child);
    }
    child.inc();
  }
}
