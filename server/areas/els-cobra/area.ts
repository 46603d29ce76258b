// The emergency control system integration (E1–E7 and GET/DELETE of each; docs/api.md "Emergency
// control system integration"): certificates, credentials, keywords and logins, secrets encrypted at rest.
import * as schemas from '../../../schemas/els-cobra.js';
import { defineArea } from '../area.js';
import { ElsCobraCommands } from './commands.js';
import { elsCobraModels } from './models.js';
import { elsCobraOperations } from './routes.js';
import { openKeyring, type Keyring } from './secrets.js';

declare module '../area.js' {
  interface AreaParts {
    'els-cobra': ElsCobraCommands;
  }
}

export const elsCobraArea = defineArea({
  name: 'els-cobra',
  models: [elsCobraModels],
  schemas: [schemas],
  build({ db, config }) {
    // Opened on first use: services that never touch the integration need no key.
    let keyring: Keyring | undefined;
    return new ElsCobraCommands(db, () => (keyring ??= openKeyring(config).keyring));
  },
  operations: (commands) => elsCobraOperations(commands),
});
