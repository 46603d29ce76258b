// The call area's operations C1–C12: the shared channel shapes, with alarmTemplateID on configurations.
import type { Operation } from '../../http/operation.js';
import type { AreaDeps } from '../index.js';
import { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { numberOperations } from '../channels/number-routes.js';
import { ChannelNumbers } from '../channels/numbers.js';
import { callModels } from './models.js';

/** The call area's operation declarations. */
export function callOperations(deps: AreaDeps): Operation[] {
  const { db } = deps;
  const { Phone, CallAlarming } = callModels(db);
  const phones = new ChannelNumbers(db, Phone, 'phone');
  return [
    ...alarmingOperations({ channel: 'call', labels: { list: { label: 'C1', operationId: 'listCallAlarmingConfigurations' }, update: { label: 'C2', operationId: 'updateCallAlarmingConfiguration' }, create: { label: 'C3', operationId: 'createCallAlarmingConfiguration' }, remove: { label: 'C4', operationId: 'deleteCallAlarmingConfiguration' } }, schema: 'CallAlarming' }, new AlarmingConfigs(db, CallAlarming, 'call-alarming')),
    ...flagOperations('call', { get: { label: 'C5', operationId: 'getCallDisabled' }, set: { label: 'C6', operationId: 'setCallDisabled' }, anyActive: { label: 'C12', operationId: 'getCallAnyActive' } }, new ChannelFlags(db), phones.owned),
    ...numberOperations({
      channel: 'call', resource: 'phone', schema: 'Phone', updateBy: 'path', getAsList: false,
      labels: { list: { label: 'C7', operationId: 'listPhones' }, create: { label: 'C8', operationId: 'createPhone' }, update: { label: 'C9', operationId: 'updatePhone' }, remove: { label: 'C10', operationId: 'deletePhone' }, get: { label: 'C11', operationId: 'getPhone' } },
    }, phones),
  ];
}
