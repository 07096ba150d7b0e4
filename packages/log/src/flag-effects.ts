import type { FlagEffects } from '@keel/flags';

/** What the logging flags Keel cannot act on mean here; both daemons' tables include them. */
export const LOG_FLAG_EFFECTS: FlagEffects = {
  'log-flush-frequency': {
    meaningless:
      'log lines are written at the end of each event-loop turn, so none waits for a periodic flush',
  },
  'logging-format': { refused: 'Keel writes only the text format', accepts: ['text'] },
};
