import { afterEach } from 'vitest';
import type { z } from 'zod';
import { defaultExtender, extenderSchema } from '../../options/extender-config.js';
import { Extenders } from '../extenders.js';
import { ExtenderServer } from './extender-server.js';

/**
 * Real extender servers on 127.0.0.1 and Extenders built from configuration-file entries, all
 * closed after each test of the file that calls this (at its top level).
 */
export function useExtenders(): {
  readonly server: () => Promise<ExtenderServer>;
  readonly extenders: (...files: z.input<typeof extenderSchema>[]) => Extenders;
} {
  const servers: ExtenderServer[] = [];
  const built: Extenders[] = [];
  afterEach(async () => {
    for (const e of built.splice(0)) e.close();
    for (const s of servers.splice(0)) await s.stop();
  });
  return {
    server: async () => {
      const s = await ExtenderServer.start();
      servers.push(s);
      return s;
    },
    extenders: (...files) => {
      const e = Extenders.fromConfig(files.map((f) => defaultExtender(extenderSchema.parse(f))));
      built.push(e);
      return e;
    },
  };
}
