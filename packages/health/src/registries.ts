import { assertCheckName, type HealthChecker } from './checker.js';
import { combineHandlers, healthHandler, type HealthHandler, type HealthHandlerOptions } from './handler.js';

/** Milliseconds since the epoch (or any fixed origin a test chooses). */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface HealthRegistriesOptions {
  /**
   * `--livez-grace-period` in milliseconds: until it has passed since `startTime`, boot-sequence
   * checks report success on `/livez` so a slow boot is not mistaken for a dead process.
   * @default 0
   */
  livezGracePeriodMs?: number;
  /** @default systemClock */
  clock?: Clock;
  /**
   * Where the grace period starts, on `clock`'s scale.
   * @default process start (`performance.timeOrigin`) with the system clock; `clock.now()` at
   * construction with an injected clock, whose origin this module cannot know.
   */
  startTime?: number;
}

export interface HealthInstallOptions {
  /** Receives the real error of every failed check on any of the three paths. */
  onFailure?: HealthHandlerOptions['onFailure'];
  /** Called once, the first time `/readyz` reports success. */
  onFirstReady?: () => void;
}

class CheckRegistry {
  readonly checks: HealthChecker[] = [];
  installed = false;

  constructor(readonly path: string) {}

  /** Throws, without changing anything, when `checks` cannot be added. */
  assertCanAdd(checks: readonly HealthChecker[]): void {
    if (this.installed)
      throw new Error(`unable to add because the ${this.path} endpoint has already been created`);
    const names = new Set(this.checks.map((c) => c.name));
    for (const check of checks) {
      assertCheckName(check.name);
      if (names.has(check.name))
        throw new Error(
          `unable to add health check "${check.name}" to ${this.path}: the name is already registered`,
        );
      names.add(check.name);
    }
  }
}

/**
 * The three probe registries of a server, `/healthz`, `/livez` and `/readyz`. Checks are added
 * while the server is being assembled; {@link HealthRegistries.install} freezes all three, and any
 * later add throws (the handlers have already captured their check lists).
 */
export class HealthRegistries {
  readonly #healthz = new CheckRegistry('/healthz');
  readonly #livez = new CheckRegistry('/livez');
  readonly #readyz = new CheckRegistry('/readyz');
  readonly #clock: Clock;
  readonly #livezNotBefore: number;
  readonly #graceful: boolean;

  constructor(options: HealthRegistriesOptions = {}) {
    const grace = options.livezGracePeriodMs ?? 0;
    if (!Number.isFinite(grace) || grace < 0)
      throw new RangeError(`livez grace period must not be negative, got ${grace}`);
    this.#clock = options.clock ?? systemClock;
    const start =
      options.startTime ?? (options.clock === undefined ? performance.timeOrigin : this.#clock.now());
    this.#livezNotBefore = start + grace;
    this.#graceful = grace > 0;
  }

  /** Adds to all three endpoints, with no grace period: these checks are about the server itself. */
  addHealthChecks(...checks: HealthChecker[]): void {
    this.#add([this.#healthz, checks], [this.#livez, checks], [this.#readyz, checks]);
  }

  /**
   * Adds to all three endpoints; on `/livez` only, each check passes until the livez grace period
   * has elapsed (post-start hooks, the store). `/healthz` and `/readyz` get them unwrapped, since
   * readiness must fail until the boot has really finished.
   */
  addBootSequenceChecks(...checks: HealthChecker[]): void {
    const livez = this.#graceful ? checks.map((c) => this.#withGracePeriod(c)) : checks;
    this.#add([this.#healthz, checks], [this.#livez, livez], [this.#readyz, checks]);
  }

  /**
   * One boot-sequence check whose `/readyz` form differs (the store: a liveness round trip with
   * --store-healthcheck-timeout, readiness with --store-readycheck-timeout); both carry one name.
   */
  addBootSequenceCheck(check: HealthChecker, readiness: HealthChecker = check): void {
    const livez = this.#graceful ? this.#withGracePeriod(check) : check;
    this.#add([this.#healthz, [check]], [this.#livez, [livez]], [this.#readyz, [readiness]]);
  }

  /** Adds to `/readyz` only (e.g. `shutdown`, informer sync). */
  addReadyzChecks(...checks: HealthChecker[]): void {
    this.#add([this.#readyz, checks]);
  }

  /** Adds to `/livez` only, with no grace period. */
  addLivezChecks(...checks: HealthChecker[]): void {
    this.#add([this.#livez, checks]);
  }

  /**
   * Freezes the registries and returns one handler for the three paths and their per-check paths.
   * Callable once.
   */
  install(options: HealthInstallOptions = {}): HealthHandler {
    const registries = [this.#healthz, this.#livez, this.#readyz];
    if (registries.some((r) => r.installed)) throw new Error('health handlers have already been installed');
    for (const r of registries) r.installed = true;
    const { onFailure, onFirstReady } = options;
    return combineHandlers(
      healthHandler('/healthz', this.#healthz.checks, { onFailure }),
      healthHandler('/livez', this.#livez.checks, { onFailure }),
      healthHandler('/readyz', this.#readyz.checks, { onFailure, onFirstHealthy: onFirstReady }),
    );
  }

  #add(...targets: [CheckRegistry, readonly HealthChecker[]][]): void {
    // Check every target first so a refused add leaves all three registries as they were.
    for (const [registry, checks] of targets) registry.assertCanAdd(checks);
    for (const [registry, checks] of targets) registry.checks.push(...checks);
  }

  #withGracePeriod(check: HealthChecker): HealthChecker {
    const clock = this.#clock;
    const notBefore = this.#livezNotBefore;
    return {
      name: check.name,
      async check(signal) {
        if (clock.now() < notBefore) return;
        await check.check(signal);
      },
    };
  }
}
