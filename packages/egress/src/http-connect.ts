import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { ProxyEndpoint } from './config.js';

/** Opens a byte stream to host:port; the caller layers TLS over it when the target needs it. */
export type Dial = (host: string, port: number) => Promise<Socket>;

/** Go's net.JoinHostPort: IPv6 literals in brackets. */
export function joinHostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/** A proxy that answers with more header than this is misbehaving (Go caps it at 1 MiB too). */
const MAX_RESPONSE_HEADER_BYTES = 1 << 20;

function proxyAddress(proxy: ProxyEndpoint): string {
  return proxy.kind === 'uds' ? proxy.path : joinHostPort(proxy.host, proxy.port);
}

function openProxy(proxy: ProxyEndpoint): Socket {
  switch (proxy.kind) {
    case 'uds':
      return netConnect({ path: proxy.path });
    case 'http':
      return netConnect({ host: proxy.host, port: proxy.port });
    case 'https':
      return tlsConnect({
        host: proxy.host,
        port: proxy.port,
        ...(isIP(proxy.host) ? {} : { servername: proxy.host }),
        ...(proxy.ca ? { ca: proxy.ca } : {}),
        cert: proxy.cert,
        key: proxy.key,
        ALPNProtocols: ['http/1.1'],
      });
  }
}

/**
 * Dials through an HTTP CONNECT proxy (the konnectivity server's http-connect mode, or any
 * forward proxy), as upstream's egress selector does: `CONNECT host:port` with `Host: 127.0.0.1`,
 * a 200 answer, then the socket carries the target's bytes. Errors use upstream's words.
 */
export function httpConnectDialer(proxy: ProxyEndpoint, timeoutMs: number): Dial {
  const via = proxyAddress(proxy);
  return (host, port) =>
    new Promise<Socket>((resolve, reject) => {
      const addr = joinHostPort(host, port);
      const socket = openProxy(proxy);
      let head = Buffer.alloc(0);
      const fail = (message: string): void => {
        cleanup();
        socket.destroy();
        reject(new Error(message));
      };
      const timer = setTimeout(() => fail(`dial tcp ${addr} via proxy ${via}: i/o timeout`), timeoutMs);
      const onError = (err: Error): void =>
        fail(`dialing proxy ${via} failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
      const onClose = (): void =>
        fail(`reading HTTP response from CONNECT to ${addr} via proxy ${via} failed: unexpected EOF`);
      const onData = (chunk: Buffer): void => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) {
          if (head.length > MAX_RESPONSE_HEADER_BYTES)
            fail(`reading HTTP response from CONNECT to ${addr} via proxy ${via} failed: header too long`);
          return;
        }
        const statusLine = head.subarray(0, head.indexOf('\r\n')).toString('latin1');
        const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
        if (!m) {
          fail(
            `reading HTTP response from CONNECT to ${addr} via proxy ${via} failed: malformed HTTP response "${statusLine}"`,
          );
          return;
        }
        if (m[1] !== '200') {
          fail(`proxy error from ${via} while dialing ${addr}: ${m[1]} ${m[2] ?? ''}`.trimEnd());
          return;
        }
        cleanup();
        const rest = head.subarray(end + 4);
        if (rest.length > 0) socket.unshift(rest);
        resolve(socket);
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('error', onError);
        socket.off('close', onClose);
        socket.pause();
      };
      socket.on('error', onError);
      socket.on('close', onClose);
      socket.on('data', onData);
      const ready = proxy.kind === 'https' ? 'secureConnect' : 'connect';
      socket.once(ready, () => socket.write(`CONNECT ${addr} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    });
}
