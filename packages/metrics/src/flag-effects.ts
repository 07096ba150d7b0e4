import type { FlagEffects } from '@keel/flags';

/** What the metrics flags Keel cannot act on mean here; both daemons' tables include them. */
export const METRICS_FLAG_EFFECTS: FlagEffects = {
  'show-hidden-metrics-for-version': {
    meaningless: 'no Keel metric is hidden, so there is none to show again',
  },
};
