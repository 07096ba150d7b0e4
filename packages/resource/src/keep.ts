/** Strategy helpers that copy parts of the stored object over a new one, keeping absence. */
import { cloneJson } from '@keel/apimachinery';

/**
 * `obj[key] = copy of old[key]`, or no member at all when `old` has none (so stored forms
 * compare equal). A copy, so later edits of the new object never reach the stored one.
 */
export function keepFrom<T extends object, K extends keyof T>(obj: T, old: T, key: K): void {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = cloneJson(old[key]);
}
