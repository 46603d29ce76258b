// The screen fleet (F1–F8, docs/hub.md "The screen fleet"): pairing, screens and their health, remote
// commands and test alarms.
import * as schemas from '../../../schemas/screens.js';
import { defineArea } from '../area.js';
import { ScreenCommands } from './commands.js';
import { ScreenHealth } from './health.js';
import { screenModels } from './models.js';
import { screenOperations } from './routes.js';

/** What the screens area offers the others (the hub: its screen source and health port). */
export interface ScreenParts {
  screens: ScreenCommands;
  health: ScreenHealth;
}

declare module '../area.js' {
  interface AreaParts {
    screens: ScreenParts;
  }
}

export const screensArea = defineArea({
  name: 'screens',
  models: [screenModels],
  schemas: [schemas],
  build({ db, config, events, limits, log, scheduler, need }) {
    const screens = new ScreenCommands(db, need('monitor').monitors, events, limits);
    // Online/offline once per change, to the screen's organization (across processes: health.ts).
    const health = new ScreenHealth(db, config.screenOfflineAfterMs, (organizationId, { kind, ...event }) => {
      if (kind === 'offline')
        events.toOrganization(
          organizationId,
          'screen:offline',
          event as { screenId: number; monitorId: number; since: string },
        );
      else events.toOrganization(organizationId, 'screen:online', event);
    });
    if (config.pairingSweepMs > 0)
      scheduler.every('screen-pairing-sweep', config.pairingSweepMs, async () => {
        const removed = await screens.pairings.sweep();
        if (removed) log.info({ removed }, 'expired screen pairings removed');
      });
    return { screens, health };
  },
  operations: ({ screens }) => screenOperations(screens),
});
