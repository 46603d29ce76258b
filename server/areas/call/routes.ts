// The call area's operations C1–C12: the shared channel shapes, with alarmTemplateID on configurations.
import type { Operation } from '../../http/operation.js';
import type { AreaDeps } from '../index.js';
import { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { numberOperations } from '../channels/number-routes.js';
import { ChannelNumbers } from '../channels/numbers.js';

/** The call area's operation declarations. */
export function callOperations(deps: AreaDeps): Operation[] {
  const { db } = deps;
  const phones = new ChannelNumbers(db, db.models.Phone, 'phone');
  return [
    ...alarmingOperations({ channel: 'call', labels: { list: 'C1', update: 'C2', create: 'C3', remove: 'C4' }, schema: 'CallAlarming' }, new AlarmingConfigs(db, db.models.CallAlarming, 'call-alarming')),
    ...flagOperations('call', { get: 'C5', set: 'C6', anyActive: 'C12' }, new ChannelFlags(db), phones.owned),
    ...numberOperations({
      channel: 'call', resource: 'phone', schema: 'Phone', updateBy: 'path', getAsList: false,
      labels: { list: 'C7', create: 'C8', update: 'C9', remove: 'C10', get: 'C11' },
    }, phones),
  ];
}
