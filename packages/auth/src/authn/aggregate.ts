import type { AuthenticationError } from './types.js';

/**
 * Go's utilerrors.NewAggregate for authentication errors: nested aggregates are flattened,
 * duplicate messages dropped, one message is shown as is and several as `[a, b]`. undefined for
 * no errors, as NewAggregate returns nil.
 */
export function aggregateErrors(errors: readonly AuthenticationError[]): AuthenticationError | undefined {
  const messages: string[] = [];
  for (const e of errors) {
    for (const m of e.causes ?? [e.error]) if (!messages.includes(m)) messages.push(m);
  }
  if (messages.length === 0) return undefined;
  if (messages.length === 1) return { error: messages[0] ?? '' };
  return { error: `[${messages.join(', ')}]`, causes: messages };
}
