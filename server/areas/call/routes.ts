// The call area's operations C1–C12: the shared channel shapes, with alarmTemplateID on configurations.
import {
  CallAlarming,
  CallAlarmingCreate,
  CallAlarmingList,
  CallAlarmingUpdate,
  Phone,
  PhoneCreate,
  PhoneIdParams,
  PhoneList,
  PhoneQuery,
  PhoneUpdate,
} from '../../../schemas/call.js';
import { badRequest } from '../../errors.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import type { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { PAYLOAD } from '../channels/messages.js';
import { NUMBER_SCOPE, numberAddress, numberOperations } from '../channels/number-routes.js';
import type { ChannelNumbers } from '../channels/numbers.js';

const PHONE = {
  channel: 'call',
  resource: 'phone',
  schemas: { one: Phone, list: PhoneList, create: PhoneCreate, idParams: PhoneIdParams, query: PhoneQuery },
} as const;
const phone = numberAddress(PHONE);

/** The call area's commands (built in server/areas/index.ts). */
export interface CallCommands {
  alarming: AlarmingConfigs;
  phones: ChannelNumbers;
  flags: ChannelFlags;
}

/** The call area's operation declarations. */
export function callOperations({ alarming, phones, flags }: CallCommands): Operation[] {
  return [
    ...alarmingOperations(
      {
        channel: 'call',
        labels: {
          list: { label: 'C1', operationId: 'listCallAlarmingConfigurations' },
          update: { label: 'C2', operationId: 'updateCallAlarmingConfiguration' },
          create: { label: 'C3', operationId: 'createCallAlarmingConfiguration' },
          remove: { label: 'C4', operationId: 'deleteCallAlarmingConfiguration' },
        },
        schemas: { one: CallAlarming, list: CallAlarmingList, create: CallAlarmingCreate, update: CallAlarmingUpdate },
      },
      alarming,
    ),
    ...flagOperations(
      'call',
      {
        get: { label: 'C5', operationId: 'getCallDisabled' },
        set: { label: 'C6', operationId: 'setCallDisabled' },
        anyActive: { label: 'C12', operationId: 'getCallAnyActive' },
      },
      flags,
      phones.owned,
    ),
    ...numberOperations(
      {
        ...PHONE,
        labels: {
          list: { label: 'C7', operationId: 'listPhones' },
          create: { label: 'C8', operationId: 'createPhone' },
          remove: { label: 'C10', operationId: 'deletePhone' },
          update: { label: 'C9', operationId: 'updatePhone' },
        },
      },
      phones,
    ),
    // C9 names the number in the path (or the literal {phoneID} with phoneID in the query).
    defineOperation({
      label: 'C9',
      operationId: 'updatePhone',
      method: 'put',
      path: phone.byId,
      summary: 'Update a phone number (ID in the path; given fields replace the stored ones; ownerID cannot change)',
      description:
        `Who may: ${NUMBER_SCOPE}. The path names the number (or the literal {phoneID} with phoneID ` +
        `in the query). The gsm number must be valid for its country code.`,
      params: phone.params,
      query: phone.query,
      body: { schema: PhoneUpdate, message: PAYLOAD },
      response: { status: 200, schema: Phone, description: 'The updated phone number' },
      errors: [400, 403, 404, 413, 415],
      handler({ actor, params: p, query: q, body: b }) {
        const id = phone.idOf(p, q);
        if (b.id !== undefined && q.phoneID !== undefined && b.id !== q.phoneID)
          throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'id', problem: 'differs from phoneID' }]);
        return phones.update(actor, id, q.organization_id, b);
      },
    }),
    // C11 answers the number itself. Last: its path catches every other name.
    defineOperation({
      label: 'C11',
      operationId: 'getPhone',
      method: 'get',
      path: '/api/v1/call/:phoneID',
      summary: 'Get a phone number',
      description:
        'The owner reads his own number without organization_id; an admin or the API key of an organization ' +
        'the owner belongs to reads it too. A number the caller cannot reach is 404.',
      params: phone.params,
      query: phone.query,
      response: { status: 200, schema: Phone, description: 'The phone number' },
      errors: [400, 403, 404],
      handler: ({ actor, params: p, query: q }) => phones.get(actor, phone.idOf(p, q), q.organization_id),
    }),
  ];
}
