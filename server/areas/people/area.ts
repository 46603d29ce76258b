// People (P1–P9, docs/people.md): invitations and sign-in links, sessions in a cookie, members and the
// roster import; and the organization's API keys (K1–K3). Its collections are identity's (server/identity/): it adds none of its own.
import * as schemas from '../../../schemas/people.js';
import { defineArea } from '../area.js';
import { apiKeyOperations, ApiKeys } from './api-keys.js';
import { PeopleCommands } from './commands.js';
import { passkeyOperations } from './passkey-routes.js';
import { peopleOperations } from './routes.js';

declare module '../area.js' {
  interface AreaParts {
    people: { people: PeopleCommands; keys: ApiKeys };
  }
}

export const peopleArea = defineArea({
  name: 'people',
  models: [],
  schemas: [schemas],
  build: ({ db, events, limits, publicUrl, need, scheduler, log }) => {
    const people = new PeopleCommands(db, events, limits, publicUrl, {
      mobiles: () => need('sms').mobiles,
      phones: () => need('call').phones,
    });
    scheduler.every('people-sweep', 3_600_000, async () => {
      const removed = await people.people.sweep();
      if (Object.values(removed).some((n) => n > 0)) log.info(removed, 'people: expired codes and sessions removed');
    });
    return { people, keys: new ApiKeys(db, events) };
  },
  operations: ({ people, keys }) => [
    ...peopleOperations(people),
    ...passkeyOperations(people),
    ...apiKeyOperations(keys),
  ],
});
