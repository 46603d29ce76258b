// The sms area's operations S1–S14: the shared channel shapes plus the text formatter (S7/S8).
import type { FormatterQueryInput, TextFormatterInput } from '../../../schemas/sms.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AlarmingConfigs } from '../channels/alarming.js';
import { alarmingOperations } from '../channels/alarming-routes.js';
import type { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { numberOperations } from '../channels/number-routes.js';
import type { ChannelNumbers } from '../channels/numbers.js';
import type { SmsFormatters } from './formatter.js';

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
    ...alarmingOperations({ channel: 'sms', labels: { list: { label: 'S1', operationId: 'listSmsAlarmingConfigurations' }, update: { label: 'S2', operationId: 'updateSmsAlarmingConfiguration' }, create: { label: 'S3', operationId: 'createSmsAlarmingConfiguration' }, remove: { label: 'S4', operationId: 'deleteSmsAlarmingConfiguration' } }, schema: 'SmsAlarming' }, alarming),
    ...flagOperations('sms', { get: { label: 'S5', operationId: 'getSmsDisabled' }, set: { label: 'S6', operationId: 'setSmsDisabled' }, anyActive: { label: 'S14', operationId: 'getSmsAnyActive' } }, flags, mobiles.owned),
    defineOperation<FormatterQueryInput>({
      label: 'S7',
      operationId: 'getSmsTextFormatter', method: 'get', path: '/api/v1/sms/formatter',
      summary: 'Get the organization\'s sms text formatter (standard until one is set; members read it)',
      description: 'Members, admins and the API key of the organization read it; another organization is a 403. Answers textFormatterName standard until S8 set another.',
      query: { schema: 'FormatterQuery', message: 'organization missing or in wrong format' },
      response: { status: 200, schema: 'TextFormatter', description: 'The text formatter' }, errors: [400, 403],
      handler: ({ actor, query }) => formatters.get(actor, query.organization),
    }),
    defineOperation<unknown, unknown, TextFormatterInput>({
      label: 'S8',
      operationId: 'setSmsTextFormatter', method: 'put', path: '/api/v1/sms/formatter',
      summary: 'Set the organization\'s sms text formatter (admins and the API key); the names are the formatters the service implements',
      description: 'Organization admins and the API key of organizationID. standard sends event, address and message in as many segments as needed; compact always one segment of 160 GSM-7 characters; detailed adds start time, coordinates and responses. Setting the same name again changes nothing.',
      body: { schema: 'TextFormatter', message: 'Body missing or in wrong format' },
      response: { status: 200, schema: 'TextFormatter', description: 'The text formatter as set' }, errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => formatters.set(actor, body),
    }),
    ...numberOperations({
      channel: 'sms', resource: 'mobile', schema: 'Mobile', updateBy: 'body', getAsList: true,
      labels: { list: { label: 'S9', operationId: 'listMobiles' }, update: { label: 'S10', operationId: 'updateMobile' }, create: { label: 'S11', operationId: 'createMobile' }, remove: { label: 'S12', operationId: 'deleteMobile' }, get: { label: 'S13', operationId: 'getMobile' } },
    }, mobiles),
  ];
}
