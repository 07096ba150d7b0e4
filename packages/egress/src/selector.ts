import type { EgressConfig, EgressSelectionName } from './config.js';
import { httpConnectDialer, type Dial } from './http-connect.js';

/** How long a proxy may take to open the tunnel (Go's dialer in upstream has 30 s). */
const DIAL_TIMEOUT_MS = 30_000;

/**
 * The dialers of --egress-selector-config-file, looked up by network as upstream's
 * EgressSelector.Lookup: `undefined` means dial directly (no file, no entry, or `Direct`).
 */
export class EgressSelector {
  private readonly dialers = new Map<EgressSelectionName, Dial>();

  constructor(config: EgressConfig | undefined, timeoutMs = DIAL_TIMEOUT_MS) {
    for (const [name, connection] of config ?? [])
      if (connection.protocol === 'HTTPConnect')
        this.dialers.set(name, httpConnectDialer(connection.proxy, timeoutMs));
  }

  lookup(name: EgressSelectionName): Dial | undefined {
    return this.dialers.get(name);
  }

  /** The networks that go through a proxy, for the start-up log. */
  get proxied(): readonly EgressSelectionName[] {
    return [...this.dialers.keys()];
  }
}
