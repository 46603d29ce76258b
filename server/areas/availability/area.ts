// Availability (W2, W3; docs/people.md "Availability"): whether each member can come, said by himself,
// counted for the console and the wall. Its one collection is read by exact _id; the members come from
// people (P6's list).
import * as schemas from '../../../schemas/availability.js';
import { defineArea } from '../area.js';
import { AvailabilityCommands } from './commands.js';
import { availabilityModels } from './models.js';
import { availabilityOperations } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    availability: AvailabilityCommands;
  }
}

export const availabilityArea = defineArea({
  name: 'availability',
  models: [availabilityModels],
  schemas: [schemas],
  build: ({ db, events, need }) =>
    new AvailabilityCommands(
      db,
      events,
      async (organizationId) =>
        (await need('people').people.people.members(organizationId)).map((m) => ({ userId: m.userId, name: m.name })),
      async (caller, monitorId) => {
        const record = await need('monitor').monitors.readable(caller, monitorId);
        return { organizationID: record.organizationID, configurationStandby: record.config.configurationStandby };
      },
    ),
  operations: (availability) => availabilityOperations(availability),
});
