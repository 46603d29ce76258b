// The call area's operations C1–C12: the shared channel shapes, with alarmTemplateID on configurations.
import type { Operation } from '../../http/operation.js';
import type { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import type { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { numberOperations } from '../channels/number-routes.js';
import type { ChannelNumbers } from '../channels/numbers.js';

/** The call area's commands (built in server/areas/index.ts). */
export interface CallCommands {
  alarming: AlarmingConfigs;
  phones: ChannelNumbers;
  flags: ChannelFlags;
}

/** The call area's operation declarations. */
export function callOperations({ alarming, phones, flags }: CallCommands): Operation[] {
  return [
    ...alarmingOperations({ channel: 'call', labels: { list: { label: 'C1', operationId: 'listCallAlarmingConfigurations' }, update: { label: 'C2', operationId: 'updateCallAlarmingConfiguration' }, create: { label: 'C3', operationId: 'createCallAlarmingConfiguration' }, remove: { label: 'C4', operationId: 'deleteCallAlarmingConfiguration' } }, schema: 'CallAlarming' }, alarming),
    ...flagOperations('call', { get: { label: 'C5', operationId: 'getCallDisabled' }, set: { label: 'C6', operationId: 'setCallDisabled' }, anyActive: { label: 'C12', operationId: 'getCallAnyActive' } }, flags, phones.owned),
    ...numberOperations({
      channel: 'call', resource: 'phone', schema: 'Phone', updateBy: 'path', getAsList: false,
      labels: { list: { label: 'C7', operationId: 'listPhones' }, create: { label: 'C8', operationId: 'createPhone' }, update: { label: 'C9', operationId: 'updatePhone' }, remove: { label: 'C10', operationId: 'deletePhone' }, get: { label: 'C11', operationId: 'getPhone' } },
    }, phones),
  ];
}
