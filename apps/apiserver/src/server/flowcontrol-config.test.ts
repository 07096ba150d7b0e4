import { CONDITION_DANGLING, FlowController, type FlowSchema } from '@keel/flowcontrol';
import { createMemoryStorage, StoreInformer, type Storage } from '@keel/storage';
import { describe, expect, it } from 'vitest';
import {
  ensureFlowControlConfiguration,
  FLOW_SCHEMAS_KEY,
  FlowControlConfigConsumer,
  type FlowSchemaStatusWriter,
  PRIORITY_LEVELS_KEY,
} from './flowcontrol-config.js';

/**
 * The status store's part the consumer uses, straight onto the store, counting the writes it is
 * asked for (each one a read of the stored object through the generic store in the server).
 */
function countingStatusStore(storage: Storage): FlowSchemaStatusWriter & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    async update(_namespace, name, mutate) {
      writes.push(name);
      return storage.guaranteedUpdate<FlowSchema>(
        `${FLOW_SCHEMAS_KEY}/${name}`,
        (current) => mutate(current).obj,
      );
    },
  };
}

const settle = async (until: () => boolean) => {
  for (let i = 0; i < 200 && !until(); i++) await new Promise((r) => setTimeout(r, 5));
};

describe('FlowControlConfigConsumer', () => {
  it('marks each bootstrap FlowSchema once, however many events arrive before its write is seen', async () => {
    const storage = createMemoryStorage();
    const ac = new AbortController();
    const schemas = new StoreInformer(storage, FLOW_SCHEMAS_KEY);
    const levels = new StoreInformer(storage, PRIORITY_LEVELS_KEY);
    void schemas.run(ac.signal);
    void levels.run(ac.signal);
    const status = countingStatusStore(storage);
    const errors: unknown[] = [];
    const consumer = new FlowControlConfigConsumer(status, schemas, levels, new FlowController(600), (err) =>
      errors.push(err),
    );
    await consumer.start(ac.signal);
    // As at start-up: the whole configuration is created while the consumer already runs.
    await ensureFlowControlConfiguration(storage);
    const stored = async () => (await storage.list<FlowSchema>(FLOW_SCHEMAS_KEY)).items;
    // The informer holds what the store does: FlowSchemas under this key.
    const marked = (obj: unknown) =>
      (obj as FlowSchema | undefined)?.status?.conditions?.find((c) => c.type === CONDITION_DANGLING)
        ?.status === 'False';
    const all = await stored();
    await settle(() => status.writes.length >= all.length && [...schemas.list()].every(marked));
    expect((await stored()).every(marked)).toBe(true);
    expect(status.writes.sort()).toEqual(all.map((fs) => fs.metadata.name).sort());
    expect(errors).toEqual([]);

    // Someone else's condition is still put back, once.
    const name = all[0]?.metadata.name ?? '';
    await storage.guaranteedUpdate<FlowSchema>(`${FLOW_SCHEMAS_KEY}/${name}`, (fs) => ({
      ...(fs as FlowSchema),
      status: { conditions: [{ type: CONDITION_DANGLING, status: 'True', reason: 'Forged', message: 'no' }] },
    }));
    await settle(
      () => status.writes.length > all.length && marked(schemas.get(`${FLOW_SCHEMAS_KEY}/${name}`)),
    );
    expect(status.writes.filter((n) => n === name)).toHaveLength(2);
    expect(marked(await storage.get<FlowSchema>(`${FLOW_SCHEMAS_KEY}/${name}`))).toBe(true);
    ac.abort();
    await storage.close();
  });
});
