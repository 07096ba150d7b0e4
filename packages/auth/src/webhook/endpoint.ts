import { keelVersion } from '@keel/apimachinery';
import { loadConnectionConfig, RestClient, type Connection, type Dialer } from '@keel/client';
import { ConfigError } from '../config-error.js';
import { errorText, postReview, type ReviewRequestOptions } from './review-request.js';

/**
 * Where reviews are POSTed: a client and the path on its server. The scheduler asks the API
 * server (`/apis/authentication.k8s.io/v1/tokenreviews`); the API server asks a webhook at the
 * exact URL its connection-config names.
 */
export interface ReviewEndpoint {
  readonly client: RestClient;
  readonly path: string;
}

/** POSTs one review to the endpoint, with kube's retries; see postReview. */
export function sendReview(
  endpoint: ReviewEndpoint,
  body: unknown,
  opts: ReviewRequestOptions = {},
): Promise<unknown> {
  return postReview(endpoint.client, endpoint.path, body, opts);
}

/**
 * The endpoint of a webhook configured by a connection-config file (kube's NewGenericWebhook):
 * the current context's cluster gives the URL (path included: reviews go to exactly that URL) and
 * its CA, the user the client certificate or token the API server presents. The webhook gets no
 * client-side throttling, as in kube. Throws a ConfigError naming `flag` when the file is unusable.
 * `dial`: the controlplane egress proxy's tunnel, when --egress-selector-config-file names one.
 */
export function webhookEndpoint(flag: string, file: string, dial?: Dialer): ReviewEndpoint {
  let connection: Connection;
  try {
    connection = loadConnectionConfig(file);
  } catch (err) {
    throw new ConfigError(`--${flag}: ${errorText(err)}`);
  }
  const url = connection.server;
  // The client joins its server and a request path; give it the origin and keep the path here.
  const client = new RestClient(
    { ...connection, server: new URL(url.origin) },
    { rateLimiter: null, userAgent: `keel-apiserver/${keelVersion}`, dial },
  );
  return { client, path: url.pathname };
}
