// Every area's collections, one set per area (server/db/models.ts): the database opens with these, so
// each index exists before the first request. An area adds its set here.
import type { ModelSet } from '../db/models.js';
import { identityModels } from '../identity/models.js';
import { alarmModels } from './alarms/models.js';
import { appModels } from './app/models.js';
import { callModels } from './call/models.js';
import { channelModels } from './channels/models.js';
import { elsCobraModels } from './els-cobra/models.js';
import { journalModels } from './journal/models.js';
import { monitorModels } from './monitor/models.js';
import { screenModels } from './screens/models.js';
import { smsModels } from './sms/models.js';
import { thingsModels } from './things/models.js';

/** The model sets of identity and every area. */
export const serviceModels: ModelSet[] = [
  identityModels,
  monitorModels,
  screenModels,
  channelModels,
  appModels,
  smsModels,
  callModels,
  journalModels,
  elsCobraModels,
  thingsModels,
  alarmModels,
];
