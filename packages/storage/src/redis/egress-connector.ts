import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { RedisOptions } from 'ioredis';
// ioredis exports its connector base class only from its CommonJS build (whose default export
// Node's ESM interop wraps once more); a connector must extend it, as ioredis calls its methods.
import AbstractConnectorModule from 'ioredis/built/connectors/AbstractConnector.js';

/** Opens a byte stream to host:port through an egress proxy (--egress-selector-config-file `etcd`). */
export type StoreDialer = (host: string, port: number) => Promise<Socket>;

type ConnectorConstructor = NonNullable<RedisOptions['Connector']>;

type AbstractConnectorClass = typeof AbstractConnectorModule.default;
// Bundlers that follow Babel's interop hand over the class itself.
const imported = AbstractConnectorModule as unknown as AbstractConnectorClass | { default: AbstractConnectorClass };
const AbstractConnector: AbstractConnectorClass = typeof imported === 'function' ? imported : imported.default;

interface ConnectorOptions {
  readonly host?: string;
  readonly port?: number;
  readonly tls?: ConnectionOptions;
  readonly disconnectTimeout: number;
}

/**
 * An ioredis connector that reaches each Redis node through `dial` and speaks TLS over the tunnel
 * for `rediss://`. The stream is handed over connected, so ioredis starts its handshake at once;
 * the dial itself is bounded by the egress dialer's timeout.
 */
export function egressConnector(dial: StoreDialer): ConnectorConstructor {
  return class EgressConnector extends AbstractConnector {
    constructor(private readonly options: ConnectorOptions) {
      super(options.disconnectTimeout);
    }

    override async connect(): Promise<Socket> {
      this.connecting = true;
      const host = this.options.host ?? '127.0.0.1';
      const raw = await dial(host, this.options.port ?? 6379);
      if (!this.connecting) {
        raw.destroy();
        throw new Error('Connection is closed.');
      }
      const tls = this.options.tls;
      const stream = tls
        ? await new Promise<Socket>((resolve, reject) => {
            const s = tlsConnect({ ...tls, socket: raw, ...(isIP(host) ? {} : { servername: host }) });
            s.once('secureConnect', () => resolve(s));
            s.once('error', reject);
          })
        : raw;
      stream.once('error', (err) => (this.firstError = err));
      this.stream = stream;
      return stream;
    }
  } as unknown as ConnectorConstructor;
}
