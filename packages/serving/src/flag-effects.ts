import type { FlagEffects } from '@keel/flags';

/** What the secure-serving flags Keel cannot act on mean here; both daemons' tables include them. */
export const SECURE_SERVING_FLAG_EFFECTS: FlagEffects = {
  'permit-address-sharing': {
    meaningless:
      'Node.js always sets SO_REUSEADDR on a listening socket, so the address is always shared in this sense',
  },
};
