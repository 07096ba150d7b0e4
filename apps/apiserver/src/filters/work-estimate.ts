import type { RequestInfo } from '../endpoints/request-info.js';

/** How many seats a request takes while it executes, given its level's maximum. */
export type WorkEstimator = (info: RequestInfo, url: URL, maxSeats: number) => number;

/** upstream's ObjectsPerSeat: one seat per hundred objects a list goes through. */
const OBJECTS_PER_SEAT = 100;

/**
 * upstream's WorkEstimator for reads: a LIST costs one seat per hundred objects it will go
 * through, by the stored object counts (apiserver_storage_objects' poll, keyed `<resource>` or
 * `<resource>.<group>`): every stored object when served from the watch cache (ConsistentListFromCache
 * is on in 1.34), otherwise twice the page, or the whole count plus the page with a selector.
 * An unknown resource costs one seat, a count the store could not take (-1) the maximum, as
 * does a `limit` that does not parse. Everything else costs one seat.
 */
export function listWorkEstimator(counts: ReadonlyMap<string, number>): WorkEstimator {
  return (info, url, maxSeats) => {
    if (info.verb !== 'list') return 1;
    const q = url.searchParams;
    const limitText = q.get('limit') ?? '';
    const limit = limitText === '' ? 0 : Number(limitText);
    if (!Number.isInteger(limit)) return maxSeats;
    const stored = counts.get(info.apiGroup === '' ? info.resource : `${info.resource}.${info.apiGroup}`);
    if (stored === undefined) return 1;
    if (stored < 0) return maxSeats;
    const page = limit > 0 && limit < stored ? limit : stored;
    const fromStorage = (q.get('continue') ?? '') !== '' || q.get('resourceVersionMatch') === 'Exact';
    const selective = (q.get('labelSelector') ?? '') !== '' || (q.get('fieldSelector') ?? '') !== '';
    const objects = !fromStorage ? stored : selective ? stored + page : 2 * page;
    return Math.min(maxSeats, Math.max(1, Math.ceil(objects / OBJECTS_PER_SEAT)));
  };
}
