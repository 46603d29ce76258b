// Descriptive operationIds for generated clients (listMonitors, setMonitorAlarmingData…), by the
// interface's label; the label itself stays in each operation's `x-label`.

const CHANNEL_IDS = (prefix: 'S' | 'C', name: 'Sms' | 'Call') => ({
  [`${prefix}1`]: `list${name}AlarmingConfigurations`,
  [`${prefix}2`]: `update${name}AlarmingConfiguration`,
  [`${prefix}3`]: `create${name}AlarmingConfiguration`,
  [`${prefix}4`]: `delete${name}AlarmingConfiguration`,
  [`${prefix}5`]: `get${name}Disabled`,
  [`${prefix}6`]: `set${name}Disabled`,
  ...(prefix === 'S'
    ? { S7: 'getSmsTextFormatter', S8: 'setSmsTextFormatter', S9: 'listMobiles', S10: 'updateMobile', S11: 'createMobile', S12: 'deleteMobile', S13: 'getMobile', S14: 'getSmsAnyActive' }
    : { C7: 'listPhones', C8: 'createPhone', C9: 'updatePhone', C10: 'deletePhone', C11: 'getPhone', C12: 'getCallAnyActive' }),
});

/** operationId by label; an operation not listed keeps its label. */
export const OPERATION_IDS: Record<string, string> = {
  A1: 'listDevices', A2: 'createDevice', A3: 'getDevice', A4: 'updateDevice', A5: 'sendTestPush', A6: 'deleteDevice',
  A7: 'getAppAnyActive', A8: 'getAppDisabled', A9: 'setAppDisabled', A10: 'setAlarmFeedback', A11: 'answerPush',
  'A11-delivered': 'confirmPushDelivered',
  ...CHANNEL_IDS('S', 'Sms'),
  ...CHANNEL_IDS('C', 'Call'),
  M1: 'listMonitors', M2: 'updateMonitor', M3: 'createMonitor', M4: 'getMonitor', M5: 'deleteMonitor', M6: 'getMonitorData',
  M7: 'setMonitorAlarmingData', M8: 'patchMonitorAlarmingData', M9: 'setMonitorMetaData', M10: 'patchMonitorMetaData',
  E1: 'getCertificateSet', E2: 'setCertificateSet', 'E2-delete': 'deleteCertificateSet', E3: 'getCredentials',
  E4: 'setCredentials', 'E4-delete': 'deleteCredentials', E5: 'getKeywordList', E6: 'setKeywordList',
  'E6-delete': 'deleteKeywordList', 'E7-get': 'getLogin', E7: 'setLogin', 'E7-delete': 'deleteLogin',
  J1: 'listCategories', J2: 'createCategory', J3: 'getCategory', J4: 'updateCategory', J5: 'deleteCategory', J6: 'getJournal',
  J7: 'lockJournal', J8: 'unlockJournal', J9: 'createJournalEntry', J10: 'deleteJournalEntry',
  'J-close': 'closeJournal', 'J-force-unlock': 'forceUnlockJournal',
  T1: 'listEntities', T2: 'createEntity', T3: 'getEntity', T4: 'updateEntity', T5: 'listRecords', T6: 'createRecord',
  T7: 'bulkRecords', T8: 'getRecord', T9: 'updateRecord', T10: 'listRules', T11: 'createRule', T12: 'updateRule', 'T12-delete': 'deleteRule', T13: 'getRecordUsage',
  F1: 'startScreenPairing', F2: 'pollScreenPairing', F3: 'pairScreen', F4: 'listScreens', F5: 'deleteScreen',
  F6: 'commandScreen', F7: 'commandMonitorScreens', F8: 'startTestAlarm',
};

/** The operationId of an operation declared under `label`, for `method` when it is an extra one. */
export function operationIdOf(label: string, method: string, extra: boolean): string {
  const id = OPERATION_IDS[label] || label;
  return extra ? `${id}With${method[0].toUpperCase()}${method.slice(1)}` : id;
}
