/**
 * kube-scheduler's framework.Code. Expected outcomes ("this node does not fit") are statuses,
 * not exceptions; `Error` is kept for real failures. The comments say what happens to the pod.
 */
export const Code = {
  /** The plugin ran and the pod may proceed. */
  Success: 'Success',
  /** An internal failure: the cycle aborts and the pod goes to the backoff queue. */
  Error: 'Error',
  /** The node does not fit now; the pod waits in the unschedulable pods for a cluster event. */
  Unschedulable: 'Unschedulable',
  /** Like Unschedulable, and preemption would not help either: the node is no preemption candidate. */
  UnschedulableAndUnresolvable: 'UnschedulableAndUnresolvable',
  /** From PreFilter/PreScore: the plugin has nothing to do for this pod; its Filter/Score is skipped. */
  Skip: 'Skip',
} as const;
export type Code = (typeof Code)[keyof typeof Code];

export class Status {
  private constructor(
    readonly code: Code,
    readonly reasons: readonly string[],
    readonly plugin: string,
    readonly error: Error | undefined,
  ) {}

  static of(code: Code, ...reasons: string[]): Status {
    return new Status(code, reasons, '', undefined);
  }

  static unschedulable(...reasons: string[]): Status {
    return Status.of(Code.Unschedulable, ...reasons);
  }

  static unresolvable(...reasons: string[]): Status {
    return Status.of(Code.UnschedulableAndUnresolvable, ...reasons);
  }

  static skip(): Status {
    return SKIP;
  }

  /** An Error status carrying `err`; its message is the only reason (kube's AsStatus). */
  static fromError(err: unknown): Status {
    const e = err instanceof Error ? err : new Error(String(err));
    return new Status(Code.Error, [e.message], '', e);
  }

  /** The last `withPlugin` result: a plugin returning one shared status gets one copy, not one per node. */
  private tagged: Status | undefined;

  withPlugin(plugin: string): Status {
    if (this.plugin === plugin) return this;
    if (this.tagged?.plugin !== plugin) this.tagged = new Status(this.code, this.reasons, plugin, this.error);
    return this.tagged;
  }

  /** kube's Message(): the reasons joined by ", ". */
  message(): string {
    return this.reasons.join(', ');
  }

  isSuccess(): boolean {
    return this.code === Code.Success;
  }

  isSkip(): boolean {
    return this.code === Code.Skip;
  }

  /** The node (or pod) was rejected, as opposed to an internal error. */
  isRejected(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable;
  }

  asError(): Error {
    return this.error ?? new Error(this.message());
  }
}

const SKIP = Status.of(Code.Skip);

/** Plugins return `undefined` for success, as Go plugins return a nil status. */
export type MaybeStatus = Status | undefined;

export function isSuccess(s: MaybeStatus): boolean {
  return s === undefined || s.isSuccess();
}
