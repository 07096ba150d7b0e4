import type { AdmissionAttributes, Operation } from './attributes.js';
import type { Admission, AdmissionPlugin } from './plugin.js';

/**
 * The plugins in order: every mutating plugin (in order) runs in `admit`, then every validating
 * plugin (in order) in `validate`, as kube's chainAdmissionHandler; the first refusal stops it.
 */
export class AdmissionChain implements Admission {
  private readonly mutating: readonly AdmissionPlugin[];
  private readonly validating: readonly AdmissionPlugin[];

  constructor(readonly plugins: readonly AdmissionPlugin[]) {
    this.mutating = plugins.filter((p) => p.admit !== undefined);
    this.validating = plugins.filter((p) => p.validate !== undefined);
  }

  handles(operation: Operation): boolean {
    return this.plugins.some((p) => p.handles(operation));
  }

  // A plugin that answers synchronously is not awaited: a write passes a dozen plugins, and a
  // turn of the microtask queue for each showed in the create path's profile.
  async admit(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.mutating) {
      if (!p.handles(attrs.operation)) continue;
      const pending = p.admit?.(attrs);
      if (pending instanceof Promise) await pending;
    }
  }

  async validate(attrs: AdmissionAttributes): Promise<void> {
    for (const p of this.validating) {
      if (!p.handles(attrs.operation)) continue;
      const pending = p.validate?.(attrs);
      if (pending instanceof Promise) await pending;
    }
  }

  /** This chain followed by `more` (a resource's own checks after the configured plugins). */
  with(more: readonly AdmissionPlugin[]): AdmissionChain {
    return more.length === 0 ? this : new AdmissionChain([...this.plugins, ...more]);
  }
}

/** No plugins: every write is admitted as it is. */
export const noAdmission = new AdmissionChain([]);
