/**
 * The webhook backend: POSTs each batch as an audit EventList to the server a connection-config
 * file names. Any failure is retried (kube retries audit webhooks whatever the error) up to five
 * attempts, waiting the initial backoff, then 1.5 times longer each time, with 20% jitter.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConnectionConfig, Transport, type Dialer } from '@keel/client';
import { keelVersion } from '@keel/apimachinery';
import { encodeEventList } from './encode.js';
import type { Backend } from './sink.js';
import type { AuditEvent, AuditVersion } from './types.js';

export interface WebhookBackendOptions {
  readonly configFile: string;
  readonly version: AuditVersion;
  readonly initialBackoffMs: number;
  /** The controlplane egress tunnel (--egress-selector-config-file); undefined: directly. */
  readonly dial?: Dialer | undefined;
}

const ATTEMPTS = 5;
const FACTOR = 1.5;
const JITTER = 0.2;
/** kube's webhook request timeout, headers and body together. */
const REQUEST_TIMEOUT_MS = 30_000;

export class WebhookBackend implements Backend {
  private readonly transport: Transport;
  private readonly path: string;

  /** Reads the connection-config now; a bad file fails start-up (ConnectionConfigError). */
  constructor(private readonly opts: WebhookBackendOptions) {
    const conn = loadConnectionConfig(opts.configFile);
    // The server URL's path is where events go; the transport joins paths onto an origin.
    this.path = `${conn.server.pathname}${conn.server.search}`;
    this.transport = new Transport(
      { ...conn, server: new URL(conn.server.origin) },
      `keel-apiserver/${keelVersion}`,
      undefined,
      opts.dial,
    );
  }

  async write(events: readonly AuditEvent[]): Promise<void> {
    const body = encodeEventList(events, this.opts.version);
    let delay = this.opts.initialBackoffMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.transport.send('POST', this.path, {
          body,
          contentType: 'application/json',
          timeoutMs: REQUEST_TIMEOUT_MS,
        });
        return;
      } catch (err) {
        if (attempt >= ATTEMPTS) throw err;
      }
      await sleep(delay * (1 + JITTER * Math.random()));
      delay *= FACTOR;
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}
