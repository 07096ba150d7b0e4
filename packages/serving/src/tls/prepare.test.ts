import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ensureSelfSignedCert, prepareSelfSigned, selfSignedHosts } from '../index.js';

const HOSTS = selfSignedHosts({ bindAddress: '127.0.0.1' });
const HOUR_MS = 3600_000;

/** When the pair's serving certificate says it was made (generation backdates it by an hour). */
async function madeAt(hosts: readonly string[], now: Date): Promise<number> {
  const got = await ensureSelfSignedCert({ certDir: '', hosts, now });
  return new Date(new X509Certificate(got.certPem).validFrom).getTime() + HOUR_MS;
}

describe('prepareSelfSigned', () => {
  it('generates the pair the next ensureSelfSignedCert for the same hosts takes, once', async () => {
    const prepared = Date.now();
    await prepareSelfSigned(HOSTS);
    // Asked for 30 s later: a pair generated then would be dated then.
    const later = new Date(prepared + 30_000);
    expect(Math.abs((await madeAt(HOSTS, later)) - prepared)).toBeLessThan(5_000);
    expect(await madeAt(HOSTS, later)).toBe(Math.floor(later.getTime() / 1000) * 1000);
  });

  it('is dropped by a call for other hosts, and not taken after a minute', async () => {
    await prepareSelfSigned(HOSTS);
    const later = new Date(Date.now() + 30_000);
    const other = await ensureSelfSignedCert({ certDir: '', hosts: ['10.0.0.9', ...HOSTS], now: later });
    expect(new X509Certificate(other.certPem).checkIP('10.0.0.9')).toBe('10.0.0.9');
    expect(await madeAt(HOSTS, later)).toBe(Math.floor(later.getTime() / 1000) * 1000);

    await prepareSelfSigned(HOSTS);
    const tooLate = new Date(Date.now() + 61_000);
    expect(await madeAt(HOSTS, tooLate)).toBe(Math.floor(tooLate.getTime() / 1000) * 1000);
  });
});
