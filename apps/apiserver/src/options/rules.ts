/** '' is how a string flag says "unset"; slices say it with undefined. */
export function unlessEmpty(value: string): string | undefined {
  return value === '' ? undefined : value;
}
