import { debuglog } from 'node:util';
import { errorText, namedCheck, type HealthChecker } from './checker.js';

/**
 * `NODE_DEBUG=keel-start`: when each hook finished, in ms since runAll and in the process's CPU
 * time since then (a start-up timeline: the hooks share one thread, so CPU tells more than the
 * wall clock on a loaded machine).
 */
const debug = debuglog('keel-start');

/** Work a server does once it is serving (start informers, create bootstrap objects...). */
export type PostStartHook = (signal: AbortSignal) => Promise<void>;

/** Where the hooks' checks go; {@link HealthRegistries} is one. */
export interface BootSequenceChecks {
  addBootSequenceChecks(...checks: HealthChecker[]): void;
}

type HookState = { kind: 'pending' } | { kind: 'done' } | { kind: 'failed'; err: unknown };

/**
 * Post-start hooks, each visible as the boot-sequence check `poststarthook/<name>`: it fails with
 * `not finished` until the hook has completed, and with the hook's own error if the hook failed.
 * One-shot, as in Kubernetes: hooks cannot be added once {@link PostStartHooks.runAll} has been
 * called.
 */
export class PostStartHooks {
  readonly #hooks = new Map<string, { fn: PostStartHook; state: HookState }>();
  readonly #checks: BootSequenceChecks;
  #started = false;

  constructor(checks: BootSequenceChecks) {
    this.#checks = checks;
  }

  /** Registers `fn` and its check. Throws on a duplicate name, after `runAll`, or after the health handlers were installed. */
  add(name: string, fn: PostStartHook): void {
    if (this.#started)
      throw new Error(`unable to add "${name}" because PostStartHooks have already been called`);
    if (this.#hooks.has(name)) throw new Error(`unable to add "${name}" because it was already registered`);
    const entry: { fn: PostStartHook; state: HookState } = { fn, state: { kind: 'pending' } };
    // The check goes in first: if the registries refuse it, the hook must not be registered either.
    this.#checks.addBootSequenceChecks(
      namedCheck(`poststarthook/${name}`, () => {
        if (entry.state.kind === 'pending') throw new Error('not finished');
        if (entry.state.kind === 'failed') throw entry.state.err;
      }),
    );
    this.#hooks.set(name, entry);
  }

  /**
   * Starts every hook at once with `signal` (the server's stop signal) and settles when all have
   * finished. Rejects, after all have settled, with an AggregateError naming each failed hook: the
   * real apiserver treats a failed hook as fatal, and the caller decides whether to exit.
   */
  async runAll(signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (this.#started) throw new Error('PostStartHooks have already been called');
    this.#started = true;
    const began = performance.now();
    const cpuBefore = process.cpuUsage();
    await Promise.all(
      [...this.#hooks].map(async ([name, entry]) => {
        try {
          await entry.fn(signal);
          entry.state = { kind: 'done' };
        } catch (err) {
          entry.state = { kind: 'failed', err };
        }
        if (debug.enabled) {
          const cpu = process.cpuUsage(cpuBefore);
          debug(
            '%s ms (CPU %s ms): poststarthook/%s %s',
            (performance.now() - began).toFixed(0),
            ((cpu.user + cpu.system) / 1000).toFixed(0),
            name,
            entry.state.kind,
          );
        }
      }),
    );
    // Listed in registration order, whatever order the hooks failed in.
    const failures = [...this.#hooks].flatMap(([name, { state }]) =>
      state.kind === 'failed' ? [{ name, err: state.err }] : [],
    );
    if (failures.length > 0) {
      const message = failures
        .map(({ name, err }) => `PostStartHook "${name}" failed: ${errorText(err)}`)
        .join('; ');
      throw new AggregateError(
        failures.map((f) => f.err),
        message,
      );
    }
  }
}
