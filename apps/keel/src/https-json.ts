import { request } from 'node:https';

export interface JsonResponse {
  readonly status: number;
  readonly body: unknown;
}

/** One HTTPS request with a bearer token to the API server, trusting `ca`; the answer parsed. */
export function httpsJson(
  url: string,
  opts: {
    method?: string;
    ca: string;
    token?: string;
    body?: unknown;
    contentType?: string;
    timeoutMs?: number;
  },
): Promise<JsonResponse> {
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const req = request(
      url,
      {
        method: opts.method ?? 'GET',
        ca: opts.ca,
        timeout: opts.timeoutMs ?? 5_000,
        headers: {
          accept: 'application/json',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...(payload ? { 'content-type': opts.contentType ?? 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let body: unknown = text;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            // not JSON (a probe's "ok"): keep the text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within ${opts.timeoutMs ?? 5_000} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
