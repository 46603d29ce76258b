// JSON Schemas of the call area (C1–C12): the sms shapes, plus alarmTemplateID on configurations.
import type { FromSchema } from 'json-schema-to-ts';
import { alarmTemplateID, alarmingCreate, alarmingUpdate, alarmingView, numberCreate, numberUpdate, numberView, pathIdOrPlaceholder } from './channels.js';
import { int64Id } from './common.js';

export const CallAlarmingCreate = {
  $id: 'CallAlarmingCreate', ...alarmingCreate, required: [...alarmingCreate.required, 'alarmTemplateID'], properties: { ...alarmingCreate.properties, alarmTemplateID },
} as const;
export const CallAlarmingUpdate = { $id: 'CallAlarmingUpdate', ...alarmingUpdate, properties: { ...alarmingUpdate.properties, alarmTemplateID } } as const;
export const CallAlarming = {
  $id: 'CallAlarming', ...alarmingView, required: [...alarmingView.required, 'alarmTemplateID'], properties: { ...alarmingView.properties, alarmTemplateID },
} as const;
export const CallAlarmingList = { $id: 'CallAlarmingList', type: 'array', items: { $ref: 'CallAlarming' } } as const;

export const PhoneCreate = { $id: 'PhoneCreate', ...numberCreate } as const;
export const PhoneUpdate = { $id: 'PhoneUpdate', ...numberUpdate } as const;
export const Phone = { $id: 'Phone', ...numberView } as const;
export const PhoneList = { $id: 'PhoneList', type: 'array', items: { $ref: 'Phone' } } as const;
export const PhoneIdParams = { $id: 'PhoneIdParams', type: 'object', required: ['phoneID'], properties: { phoneID: pathIdOrPlaceholder('phoneID') } } as const;
export const PhoneQuery = {
  $id: 'PhoneQuery',
  type: 'object',
  properties: { phoneID: { ...int64Id, description: 'The phone number, when the path carries the placeholder' }, organization_id: int64Id },
} as const;

export type CallAlarmingCreateInput = FromSchema<typeof CallAlarmingCreate>;
export type PhoneIdInput = FromSchema<typeof PhoneIdParams>;
