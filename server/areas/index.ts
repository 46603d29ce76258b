// Every area's operations, in the order the router mounts them. An area adds one line here.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { HubEvents } from '../hub/events.js';
import type { Operation } from '../http/operation.js';
import type { MonitorCommands } from './monitor/commands.js';
import { monitorOperations } from './monitor/routes.js';
import type { ScreenCommands } from './screens/commands.js';
import { screenOperations } from './screens/routes.js';
import { appOperations } from './app/routes.js';
import { callOperations } from './call/routes.js';
import { smsOperations } from './sms/routes.js';
import { journalOperations } from './journal/routes.js';
import { elsCobraOperations } from './els-cobra/routes.js';
import { thingsOperations } from './things/routes.js';

/** What an area's operations are built from. */
export interface AreaDeps {
  config: Config;
  db: Database;
  log: Logger;
  events: HubEvents;
  monitors: MonitorCommands;
  screens: ScreenCommands;
}

/** The operations of all areas. */
export function areaOperations(deps: AreaDeps): Operation[] {
  return [
    ...monitorOperations(deps.monitors),
    ...screenOperations(deps.screens),
    ...appOperations(deps),
    ...smsOperations(deps),
    ...callOperations(deps),
    ...journalOperations(deps),
    ...elsCobraOperations(deps),
    ...thingsOperations(deps),
  ];
}
