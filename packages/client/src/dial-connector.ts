import { Agent, type AgentOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { buildConnector } from 'undici';

/**
 * Opens a byte stream to host:port some other way than a direct TCP connection (an egress
 * proxy's tunnel); TLS to the target is layered over it here.
 */
export type Dialer = (host: string, port: number) => Promise<Socket>;

/**
 * An undici connector that dials through `dial` and then speaks TLS to the target itself, with
 * the connection's CA, identity and server name, as Go's transport does over a custom DialContext.
 */
export function dialConnector(dial: Dialer, tls: ConnectionOptions): buildConnector.connector {
  return (opts, callback) => {
    const https = opts.protocol === 'https:';
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    const port = Number(opts.port) || (https ? 443 : 80);
    dial(host, port).then(
      (raw) => {
        if (!https) {
          callback(null, raw);
          return;
        }
        const servername = opts.servername ?? (isIP(host) ? undefined : host);
        const socket = tlsConnect({
          ...tls,
          socket: raw,
          ...(servername ? { servername } : {}),
          ALPNProtocols: ['http/1.1'],
        });
        const onError = (err: Error): void => {
          raw.destroy();
          callback(err, null);
        };
        socket.once('error', onError);
        socket.once('secureConnect', () => {
          socket.off('error', onError);
          callback(null, socket);
        });
      },
      (err: Error) => callback(err, null),
    );
  };
}

/**
 * An https.Agent whose connections go through `dial` (for code on node:https, such as the OIDC
 * issuer's discovery and key set fetches); TLS is layered over the tunnel with the agent's options.
 */
export function dialingHttpsAgent(dial: Dialer, options: AgentOptions): Agent {
  const agent = new Agent(options);
  // Node's Agent takes a callback from createConnection for sockets that are made asynchronously.
  const create = (
    opts: ConnectionOptions & { host?: string; port?: number },
    done: (err: Error | null, s?: Socket) => void,
  ) => {
    const host = (opts.host ?? 'localhost').replace(/^\[|\]$/g, '');
    dial(host, Number(opts.port) || 443).then(
      (raw) =>
        done(
          null,
          tlsConnect({
            ...opts,
            socket: raw,
            ...(isIP(host) ? {} : { servername: opts.servername ?? host }),
          }),
        ),
      (err: Error) => done(err),
    );
    return undefined;
  };
  Object.assign(agent, { createConnection: create });
  return agent;
}
