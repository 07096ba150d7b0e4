import type { FlagEffect, FlagEffects } from './effects.js';
import type { FlagType } from './flag-type.js';

/** What an options struct declares for one of its fields. */
export interface FlagSpec<T> {
  /** The long name, exactly as the spec writes it, without dashes. */
  readonly name: string;
  /** A one-letter alias (`v` for `--v`). */
  readonly shorthand?: string;
  readonly type: FlagType<T>;
  /** Full-sentence help text. */
  readonly usage: string;
  /** Marks the flag deprecated; the text says what to use instead and is printed when the flag is used. */
  readonly deprecated?: string;
  /** Overrides the default shown in --help when the field's own default is not what users see. */
  readonly defaultText?: string;
}

/** A registered flag: its spec, its section, its default and how to store a parsed value. */
export interface Flag {
  readonly name: string;
  readonly shorthand: string | undefined;
  readonly section: string;
  readonly typeName: string;
  readonly usage: string;
  readonly deprecated: string | undefined;
  readonly noOptDefault: string | undefined;
  /** The default as --help prints it, or '' when pflag would print none. */
  readonly defaultText: string;
  /** Parses one occurrence and stores it; throws with the reason on bad input. */
  set(raw: string): void;
  /** Whether the command line set this flag at least once (pflag's Changed). */
  readonly changed: boolean;
  /** The current value, formatted as --help formats defaults (for logging the effective flags). */
  valueText(): string;
  /** Whether the current value formats the same as the value the flag started with. */
  isDefault(): boolean;
}

class BoundFlag<O, K extends keyof O> implements Flag {
  private occurrences = 0;
  readonly shorthand: string | undefined;
  readonly deprecated: string | undefined;
  readonly defaultText: string;
  private readonly initialText: string;

  constructor(
    readonly section: string,
    private readonly target: O,
    private readonly key: K,
    private readonly spec: FlagSpec<O[K]>,
  ) {
    this.shorthand = spec.shorthand;
    this.deprecated = spec.deprecated;
    const initial = target[key];
    this.initialText = spec.type.format(initial);
    this.defaultText =
      spec.defaultText ??
      (spec.type.isZero(initial)
        ? ''
        : spec.type.quoteDefault
          ? JSON.stringify(spec.type.format(initial))
          : spec.type.format(initial));
  }

  get name(): string {
    return this.spec.name;
  }
  get typeName(): string {
    return this.spec.type.typeName;
  }
  get usage(): string {
    return this.spec.usage;
  }
  get noOptDefault(): string | undefined {
    return this.spec.type.noOptDefault;
  }
  get changed(): boolean {
    return this.occurrences > 0;
  }

  valueText(): string {
    return this.spec.type.format(this.target[this.key]);
  }

  isDefault(): boolean {
    return this.valueText() === this.initialText;
  }

  set(raw: string): void {
    this.target[this.key] = this.spec.type.parse(raw, this.target[this.key], this.occurrences === 0);
    this.occurrences++;
  }
}

/** One titled section of --help ("Secure serving flags"), through which options bind their fields. */
export class FlagSection {
  constructor(
    private readonly owner: NamedFlagSets,
    readonly title: string,
  ) {}

  /**
   * Binds `target[key]` to a flag. The field's current value is the default, so an options class
   * keeps its defaults in one place (its initialisers) and --help shows exactly those.
   */
  var<O, K extends keyof O>(target: O, key: K, spec: FlagSpec<O[K]>): void {
    this.owner.register(new BoundFlag(this.title, target, key, spec));
  }
}

/**
 * The flags of one command, grouped in named sections as the real daemons print them. Each options
 * concern adds its own section; registration of the same name twice is a programming error.
 */
export class NamedFlagSets {
  private readonly sections = new Map<string, FlagSection>();
  private readonly flags = new Map<string, Flag>();
  private readonly shorthands = new Map<string, Flag>();

  constructor(
    readonly command: string,
    /** What each flag does in Keel; help and the docs print the notes of those that do not act. */
    readonly effects: FlagEffects = {},
  ) {}

  effectOf(name: string): FlagEffect | undefined {
    return this.effects[name];
  }

  section(title: string): FlagSection {
    let s = this.sections.get(title);
    if (!s) {
      s = new FlagSection(this, title);
      this.sections.set(title, s);
    }
    return s;
  }

  /** @internal used by FlagSection */
  register(flag: Flag): void {
    if (this.flags.has(flag.name)) throw new Error(`${this.command} flag redefined: ${flag.name}`);
    this.flags.set(flag.name, flag);
    if (flag.shorthand) {
      if (this.shorthands.has(flag.shorthand)) {
        throw new Error(`${this.command} shorthand redefined: ${flag.shorthand}`);
      }
      this.shorthands.set(flag.shorthand, flag);
    }
  }

  lookup(name: string): Flag | undefined {
    return this.flags.get(name);
  }
  lookupShorthand(letter: string): Flag | undefined {
    return this.shorthands.get(letter);
  }
  changed(name: string): boolean {
    return this.flags.get(name)?.changed ?? false;
  }
  sectionTitles(): string[] {
    return [...this.sections.keys()];
  }
  flagsIn(title: string): Flag[] {
    return [...this.flags.values()].filter((f) => f.section === title);
  }
  all(): Flag[] {
    return [...this.flags.values()];
  }
}
