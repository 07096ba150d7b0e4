import { ConfigFileError, describeZodIssues, readConfigDocument } from '@keel/config-file';
import { z } from 'zod';

/** What --tracing-config-file says, with upstream's defaults filled in. */
export interface TracingConfig {
  /** host:port of an OTLP gRPC collector. */
  readonly endpoint: string;
  /** Of each million requests that carry no sampled trace, how many start one. */
  readonly samplingRatePerMillion: number;
}

export const DEFAULT_ENDPOINT = 'localhost:4317';
const MAX_RATE = 1_000_000;

const schema = z.strictObject({
  apiVersion: z.enum([
    'apiserver.config.k8s.io/v1',
    'apiserver.config.k8s.io/v1beta1',
    'apiserver.config.k8s.io/v1alpha1',
  ]),
  kind: z.literal('TracingConfiguration'),
  endpoint: z.string().nullish(),
  samplingRatePerMillion: z.number().int().nullish(),
});

/** `host:port`, the form upstream's validation takes (no scheme: the exporter speaks gRPC). */
function endpointProblem(endpoint: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:/\s[\]]+):(\d{1,5})$/.exec(endpoint);
  if (!m || Number(m[2]) > 65535) return `endpoint: expected host:port, got "${endpoint}"`;
  return undefined;
}

/** Validates an already decoded document; `where` starts the one-line error. */
export function parseTracingConfig(doc: unknown, where: string): TracingConfig {
  const parsed = schema.safeParse(doc, { reportInput: true });
  if (!parsed.success)
    throw new ConfigFileError(`${where}: ${describeZodIssues(parsed.error.issues).join('; ')}`);
  const endpoint = parsed.data.endpoint ?? DEFAULT_ENDPOINT;
  const samplingRatePerMillion = parsed.data.samplingRatePerMillion ?? 0;
  const problems: string[] = [];
  const bad = endpointProblem(endpoint);
  if (bad) problems.push(bad);
  if (samplingRatePerMillion < 0 || samplingRatePerMillion > MAX_RATE)
    problems.push(`samplingRatePerMillion: must be between 0 and ${MAX_RATE}, got ${samplingRatePerMillion}`);
  if (problems.length > 0) throw new ConfigFileError(`${where}: ${problems.join('; ')}`);
  return { endpoint, samplingRatePerMillion };
}

/** Reads --tracing-config-file; a problem is one ConfigFileError line naming the file and field. */
export function loadTracingConfig(path: string): TracingConfig {
  const { file, doc } = readConfigDocument(path, 'tracing config file');
  return parseTracingConfig(doc, `tracing config file ${file}`);
}
