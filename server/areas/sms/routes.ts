// The sms area's operations S1–S14: the shared channel shapes plus the text formatter (S7/S8).
import {
  FormatterQuery,
  Mobile,
  MobileCreate,
  MobileIdParams,
  MobileList,
  MobileQuery,
  MobileUpdate,
  SmsAlarming,
  SmsAlarmingCreate,
  SmsAlarmingList,
  SmsAlarmingUpdate,
  TextFormatter,
} from '../../../schemas/sms.js';
import { badRequest } from '../../errors.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import type { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { PAYLOAD } from '../channels/messages.js';
import { NUMBER_SCOPE, numberAddress, numberOperations } from '../channels/number-routes.js';
import type { ChannelNumbers } from '../channels/numbers.js';
import type { SmsFormatters } from './formatter.js';

const MOBILE = {
  channel: 'sms',
  resource: 'mobile',
  schemas: { one: Mobile, list: MobileList, create: MobileCreate, idParams: MobileIdParams, query: MobileQuery },
} as const;
const mobile = numberAddress(MOBILE);

/** The sms area's commands (built in server/areas/index.ts). */
export interface SmsCommands {
  alarming: AlarmingConfigs;
  mobiles: ChannelNumbers;
  flags: ChannelFlags;
  formatters: SmsFormatters;
}

/** The sms area's operation declarations. */
export function smsOperations({ alarming, mobiles, flags, formatters }: SmsCommands): Operation[] {
  return [
    ...alarmingOperations(
      {
        channel: 'sms',
        labels: {
          list: { label: 'S1', operationId: 'listSmsAlarmingConfigurations' },
          update: { label: 'S2', operationId: 'updateSmsAlarmingConfiguration' },
          create: { label: 'S3', operationId: 'createSmsAlarmingConfiguration' },
          remove: { label: 'S4', operationId: 'deleteSmsAlarmingConfiguration' },
        },
        schemas: { one: SmsAlarming, list: SmsAlarmingList, create: SmsAlarmingCreate, update: SmsAlarmingUpdate },
      },
      alarming,
    ),
    ...flagOperations(
      'sms',
      {
        get: { label: 'S5', operationId: 'getSmsDisabled' },
        set: { label: 'S6', operationId: 'setSmsDisabled' },
        anyActive: { label: 'S14', operationId: 'getSmsAnyActive' },
      },
      flags,
      mobiles.owned,
    ),
    defineOperation({
      label: 'S7',
      operationId: 'getSmsTextFormatter',
      method: 'get',
      path: '/api/v1/sms/formatter',
      summary: "Get the organization's sms text formatter (standard until one is set; members read it)",
      description:
        'Members, admins and the API key of the organization read it; another organization is a 403. ' +
        'Answers textFormatterName standard until S8 set another.',
      query: { schema: FormatterQuery, message: 'organization missing or in wrong format' },
      response: { status: 200, schema: TextFormatter, description: 'The text formatter' },
      errors: [400, 403],
      handler: ({ actor, query }) => formatters.get(actor, query.organization),
    }),
    defineOperation({
      label: 'S8',
      operationId: 'setSmsTextFormatter',
      method: 'put',
      path: '/api/v1/sms/formatter',
      summary:
        "Set the organization's sms text formatter (admins and the API key); the names are the formatters " +
        'the service implements',
      description:
        'Organization admins and the API key of organizationID. standard sends event, address and message ' +
        'in as many segments as needed; compact always one segment of 160 GSM-7 characters; detailed ' +
        'adds start time, coordinates and responses. Setting the same name again changes nothing.',
      body: { schema: TextFormatter, message: 'Body missing or in wrong format' },
      response: { status: 200, schema: TextFormatter, description: 'The text formatter as set' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => formatters.set(actor, body),
    }),
    ...numberOperations(
      {
        ...MOBILE,
        labels: {
          list: { label: 'S9', operationId: 'listMobiles' },
          create: { label: 'S11', operationId: 'createMobile' },
          remove: { label: 'S12', operationId: 'deleteMobile' },
          update: { label: 'S10', operationId: 'updateMobile' },
        },
      },
      mobiles,
    ),
    // S10 names the number by id in the body (or mobileID in the query), as the 2019 API did.
    defineOperation({
      label: 'S10',
      operationId: 'updateMobile',
      method: 'put',
      path: '/api/v1/sms/mobile',
      summary:
        'Update a mobile number (id in the body, or mobileID in the query; given fields replace the ' +
        'stored ones; ownerID cannot change)',
      description:
        `Who may: ${NUMBER_SCOPE}. id in the body and mobileID in the query must agree when both are ` +
        `given (400). The gsm number must be valid for its country code.`,
      query: mobile.query,
      body: { schema: MobileUpdate, message: PAYLOAD },
      response: { status: 200, schema: Mobile, description: 'The updated mobile number' },
      errors: [400, 403, 404, 413, 415],
      handler({ actor, query: q, body: b }) {
        if (b.id !== undefined && q.mobileID !== undefined && b.id !== q.mobileID)
          throw badRequest('invalid_body', PAYLOAD, [{ in: 'body', path: 'id', problem: 'differs from mobileID' }]);
        const id = b.id ?? q.mobileID;
        if (id === undefined)
          throw badRequest('invalid_body', PAYLOAD, [
            { in: 'body', path: 'id', problem: 'is required (or mobileID in the query)' },
          ]);
        return mobiles.update(actor, id, q.organization_id, b);
      },
    }),
    // S13 answers a one-element list, as the 2019 API did. Last: its path catches every other name.
    defineOperation({
      label: 'S13',
      operationId: 'getMobile',
      method: 'get',
      path: '/api/v1/sms/:mobileID',
      summary: 'Get a mobile number (as a one-element list, like the 2019 API)',
      description:
        'The owner reads his own number without organization_id; an admin or the API key of an organization ' +
        'the owner belongs to reads it too. A number the caller cannot reach is 404.',
      params: mobile.params,
      query: mobile.query,
      response: { status: 200, schema: MobileList, description: 'The mobile number' },
      errors: [400, 403, 404],
      handler: async ({ actor, params: p, query: q }) => [
        await mobiles.get(actor, mobile.idOf(p, q), q.organization_id),
      ],
    }),
  ];
}
