import type { AdmissionAttributes, Operation } from './attributes.js';

/**
 * One admission plugin. A plugin refuses a write by throwing a StatusError (from
 * @keel/apimachinery) carrying the real server's code and message; `admit` may change
 * `attrs.object` in place (mutating phase), `validate` must not (validating phase).
 */
export interface AdmissionPlugin {
  readonly name: string;
  handles(operation: Operation): boolean;
  admit?(attrs: AdmissionAttributes): void | Promise<void>;
  validate?(attrs: AdmissionAttributes): void | Promise<void>;
}

/** What the registry calls: both phases over every write (kube's admission.Interface pair). */
export interface Admission {
  handles(operation: Operation): boolean;
  /** Mutating phase: runs before the object is validated. */
  admit(attrs: AdmissionAttributes): Promise<void>;
  /** Validating phase: runs after the object passed its own validation, before it is stored. */
  validate(attrs: AdmissionAttributes): Promise<void>;
}
