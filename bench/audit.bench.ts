/**
 * `pnpm bench audit`: event creates with auditing off, and with a Metadata policy writing to the
 * log sink in batch mode (target: the audited server at most 15% slower); see support/create-ab.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, TestApiServer } from '@keel/testing';
import { compareCreates } from './support/create-ab.js';

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'keel-audit-bench-'));
  const policy = join(dir, 'policy.yaml');
  writeFileSync(policy, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
  const plain = await TestApiServer.start();
  const audited = await TestApiServer.start({
    args: [
      `--audit-policy-file=${policy}`,
      `--audit-log-path=${join(dir, 'audit.log')}`,
      '--audit-log-mode=batch',
    ],
  });
  try {
    await compareCreates({
      heading: 'creates',
      baseline: { server: plain, label: 'no audit' },
      candidate: { server: audited, label: 'audit Metadata + batch log' },
      token: ADMIN_TOKEN,
      targetPercent: 15,
    });
  } finally {
    await Promise.all([plain.stop(), audited.stop()]);
  }
}
