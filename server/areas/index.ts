// Every area, in build order (an area may use the parts of those before it while it is built:
// server/areas/area.ts). From this one list come the database's model sets (models.ts), the schemas the
// validator compiles, the router's operations (in this order), ESLint's owner list (eslint.config.ts) and
// the check of docs/storage.md's table (test/areas.test.ts). A new area adds its manifest here.
import * as common from '../../schemas/common.js';
import * as hub from '../../schemas/hub.js';
import { alarmsArea } from './alarms/area.js';
import { appArea } from './app/area.js';
import { availabilityArea } from './availability/area.js';
import { schemasOf, type Area } from './area.js';
import { callArea } from './call/area.js';
import { channelsArea } from './channels/area.js';
import { elsCobraArea } from './els-cobra/area.js';
import { inputsArea } from './inputs/area.js';
import { journalArea } from './journal/area.js';
import { monitorArea } from './monitor/area.js';
import { peopleArea } from './people/area.js';
import { screensArea } from './screens/area.js';
import { smsArea } from './sms/area.js';
import { templatesArea } from './templates/area.js';
import { thingsArea } from './things/area.js';

/** The areas, in the order they are built and their operations mounted. */
export const areas: readonly Area[] = [
  monitorArea,
  screensArea,
  channelsArea,
  appArea,
  smsArea,
  callArea,
  templatesArea,
  alarmsArea,
  journalArea,
  elsCobraArea,
  thingsArea,
  peopleArea,
  availabilityArea,
  inputsArea,
];

/** Every schema of the service: the shared ones and the hub's, then each area's. */
export const serviceSchemas = schemasOf([common, hub, ...areas.flatMap((a) => a.schemas)]);
