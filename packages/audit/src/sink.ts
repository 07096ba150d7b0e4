import type { AuditEvent } from './types.js';

/** Where sinks report what they could not deliver (the server's logger fits). */
export interface ErrorLog {
  error(msg: string, kv?: Readonly<Record<string, unknown>>): void;
}

/** Where events go: a log file, a webhook, or several of them. */
export interface Sink {
  /**
   * Hands over events (already immutable). Resolves false only when a blocking-strict sink
   * failed to record them; other modes report their failures in the log and resolve true.
   */
  process(events: readonly AuditEvent[]): Promise<boolean>;
  /** Delivers whatever is buffered, then releases files and connections. */
  shutdown(): Promise<void>;
}

/** Writes events for real; throws when they could not be written. */
export interface Backend {
  write(events: readonly AuditEvent[]): Promise<void>;
  close(): Promise<void>;
}

/** Every sink gets every event; a request fails if any blocking-strict sink failed. */
export class UnionSink implements Sink {
  constructor(private readonly sinks: readonly Sink[]) {}

  async process(events: readonly AuditEvent[]): Promise<boolean> {
    const results = await Promise.all(this.sinks.map((s) => s.process(events)));
    return results.every(Boolean);
  }

  async shutdown(): Promise<void> {
    await Promise.all(this.sinks.map((s) => s.shutdown()));
  }
}
