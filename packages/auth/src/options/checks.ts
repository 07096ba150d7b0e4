/** Validation helpers the auth options share; each returns zero or more message lines. */

/** The TokenReview and SubjectAccessReview versions a webhook may speak. */
export const WEBHOOK_VERSIONS = ['v1', 'v1beta1'] as const;

export { checkDurationNonNegative } from '@keel/flags';

/** Header names and common names are matched literally, so a blank entry is always a typo. */
export function checkNoBlankEntries(flag: string, values: readonly string[]): string[] {
  return values.some((v) => v.trim() === '') ? [`--${flag} must not contain an empty value`] : [];
}

/** WHATWG URL parsing; stricter than Go's url.Parse, which accepts almost anything. */
export function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
