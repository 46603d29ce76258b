// JSON Schemas of the call area (C1–C12): the sms shapes, plus alarmTemplateID on configurations.
import {
  alarmTemplateID,
  alarmingCreate,
  alarmingUpdate,
  alarmingView,
  numberCreate,
  numberUpdate,
  numberView,
  pathIdOrPlaceholder,
} from './channels.js';
import { int64Id } from './common.js';

const callAlarming = { id: 6, gsm: '00496181904711', organizationID: 7, pin: '112233', alarmTemplateID: 12 } as const;
const phone = { id: 22, active: true, gsm: '00496181123456', name: 'Festnetz zu Hause', ownerID: 42 } as const;

export const CallAlarmingCreate = {
  $id: 'CallAlarmingCreate',
  ...alarmingCreate,
  required: [...alarmingCreate.required, 'alarmTemplateID'],
  properties: { ...alarmingCreate.properties, alarmTemplateID },
  examples: [{ gsm: '00496181904711', organizationID: 7, pin: '112233', alarmTemplateID: 12 }],
} as const;
export const CallAlarmingUpdate = {
  $id: 'CallAlarmingUpdate',
  ...alarmingUpdate,
  properties: { ...alarmingUpdate.properties, alarmTemplateID },
  examples: [{ id: 6, alarmTemplateID: 14 }],
} as const;
export const CallAlarming = {
  $id: 'CallAlarming',
  ...alarmingView,
  required: [...alarmingView.required, 'alarmTemplateID'],
  properties: { ...alarmingView.properties, alarmTemplateID },
  examples: [callAlarming],
} as const;
export const CallAlarmingList = {
  $id: 'CallAlarmingList',
  type: 'array',
  items: { $ref: 'CallAlarming' },
  examples: [[callAlarming]],
} as const;

export const PhoneCreate = {
  $id: 'PhoneCreate',
  ...numberCreate,
  examples: [{ gsm: '00496181123456', ownerID: 42, name: 'Festnetz zu Hause' }],
} as const;
export const PhoneUpdate = {
  $id: 'PhoneUpdate',
  ...numberUpdate,
  examples: [{ name: 'Festnetz Büro', active: true }],
} as const;
export const Phone = { $id: 'Phone', ...numberView, examples: [phone] } as const;
export const PhoneList = { $id: 'PhoneList', type: 'array', items: { $ref: 'Phone' }, examples: [[phone]] } as const;
export const PhoneIdParams = {
  $id: 'PhoneIdParams',
  type: 'object',
  required: ['phoneID'],
  properties: { phoneID: pathIdOrPlaceholder('phoneID', '22') },
} as const;
export const PhoneQuery = {
  $id: 'PhoneQuery',
  type: 'object',
  properties: {
    phoneID: { ...int64Id, description: 'The phone number, when the path carries the placeholder', examples: [22] },
    organization_id: { ...int64Id, examples: [7] },
  },
} as const;
