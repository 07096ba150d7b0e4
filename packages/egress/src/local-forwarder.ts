import { createServer, type AddressInfo, type Socket } from 'node:net';
import type { Dial } from './http-connect.js';

export interface LocalForwarder {
  /** `127.0.0.1:port`: give it to a client in place of the real target. */
  readonly address: string;
  close(): Promise<void>;
}

/**
 * A loopback listener whose every connection is piped to `host:port` through `dial`. It serves
 * clients that cannot be handed a dialer (the OpenTelemetry gRPC exporter), as Go's exporter is
 * handed one with grpc.WithContextDialer upstream. Only this process connects to it.
 */
export async function startLocalForwarder(dial: Dial, host: string, port: number): Promise<LocalForwarder> {
  const open = new Set<Socket>();
  const server = createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    client.pause();
    dial(host, port).then(
      (upstream) => {
        open.add(upstream);
        upstream.on('close', () => {
          open.delete(upstream);
          client.destroy();
        });
        upstream.on('error', () => upstream.destroy());
        client.on('close', () => upstream.destroy());
        upstream.pipe(client);
        client.pipe(upstream);
        client.resume();
        upstream.resume();
      },
      () => client.destroy(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
