/**
 * A flag's value type: how one occurrence on the command line is parsed and how a value is printed
 * in --help and in the generated docs. Mirrors pflag's Value interface so that Keel's flags behave
 * like the real daemons' (repeat semantics, error texts, type names).
 */
export interface FlagType<T> {
  /** pflag's Value.Type() as shown in --help; empty for booleans, which show no type. */
  readonly typeName: string;
  /** What a bare `--flag` (no `=value`) means; only booleans and --version have one. */
  readonly noOptDefault?: string;
  /**
   * Parses one occurrence. `current` is the value so far and `first` is true on the first
   * occurrence, so list types can replace their default once and then accumulate, as pflag does.
   * Throws an Error whose message is the reason (pflag prints it after the flag and value).
   */
  parse(raw: string, current: T, first: boolean): T;
  /** The value as pflag prints a default (without the `(default ...)` wrapper). */
  format(value: T): string;
  /** pflag leaves zero-valued defaults out of --help. */
  isZero(value: T): boolean;
  /** Whether --help quotes the default (pflag does for plain strings). */
  readonly quoteDefault?: boolean;
}
