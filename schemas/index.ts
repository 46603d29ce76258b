// Every schema of the service, compiled by the one Ajv instance at boot (server/http/validation.ts).
import * as common from './common.js';
import * as hub from './hub.js';
import * as monitor from './monitor.js';
import * as screens from './screens.js';
import * as app from './app.js';
import * as call from './call.js';
import * as channels from './channels.js';
import * as sms from './sms.js';
import * as journal from './journal.js';
import * as elsCobra from './els-cobra.js';
import * as things from './things.js';
import * as thingsRules from './things-rules.js';
import * as alarms from './alarms.js';

type Schema = { $id: string } & Record<string, unknown>;

function collect(...modules: Record<string, unknown>[]): Schema[] {
  return modules.flatMap((m) =>
    Object.values(m).filter(
      (v): v is Schema => typeof v === 'object' && v !== null && typeof (v as Schema).$id === 'string',
    ),
  );
}

export const allSchemas: Schema[] = collect(
  common,
  monitor,
  hub,
  screens,
  channels,
  app,
  sms,
  call,
  journal,
  elsCobra,
  things,
  thingsRules,
  alarms,
);
