import { describe } from 'vitest';
import { crudTests } from './crud-tests.js';
import { storeFixture, type MakeStore } from './helpers.js';
import { listTests } from './list-tests.js';
import { ttlTests } from './ttl-tests.js';
import { watchTests } from './watch-tests.js';

/**
 * The one behaviour suite every Storage backend must pass (Kubernetes' storage/testing
 * store_tests.go). `makeStore` must return an empty, isolated store honouring the options;
 * each test closes the stores it opened.
 */
export function describeStorageConformance(name: string, makeStore: MakeStore): void {
  describe(`${name} storage conformance`, () => {
    const open = storeFixture(makeStore);
    crudTests(open);
    listTests(open);
    watchTests(open);
    ttlTests(open);
  });
}

/** The list part of the suite alone, for a store whose lists take another path (see item-memo). */
export function describeListConformance(name: string, makeStore: MakeStore): void {
  describe(`${name} list conformance`, () => {
    listTests(storeFixture(makeStore));
  });
}
