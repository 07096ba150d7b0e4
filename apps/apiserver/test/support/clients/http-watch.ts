/** A watch opened with the headers a client sends (kubectl's Table Accept), read line by line. */
import { request } from 'undici';
import { ADMIN_TOKEN, type TestApiServer } from '@keel/testing';

export interface LineWatch {
  readonly status: number;
  readonly contentType: string | undefined;
  /** Parsed lines so far. */
  readonly events: Record<string, unknown>[];
  /** Waits until `n` events arrived (or fails with what did). */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

export async function openWatch(
  server: TestApiServer,
  path: string,
  headers: Record<string, string> = {},
): Promise<LineWatch> {
  const abort = new AbortController();
  const res = await request(server.url + path, {
    method: 'GET',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers },
    dispatcher: server.dispatcher,
    signal: abort.signal,
  });
  const events: Record<string, unknown>[] = [];
  let buffer = '';
  void (async () => {
    try {
      for await (const chunk of res.body) {
        buffer += (chunk as Buffer).toString('utf8');
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const l of lines) if (l !== '') events.push(JSON.parse(l) as Record<string, unknown>);
      }
    } catch {
      // Closed by the test.
    }
  })();
  const contentType = res.headers['content-type'];
  return {
    status: res.statusCode,
    contentType: typeof contentType === 'string' ? contentType : undefined,
    events,
    async waitFor(n, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${events.length} events: ${JSON.stringify(events)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => abort.abort(),
  };
}
