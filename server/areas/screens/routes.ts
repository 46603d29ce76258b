// The screen fleet's operations F1–F8 (docs/hub.md "The screen fleet").
import { MonitorIdParams } from '../../../schemas/monitor.js';
import {
  PairingIdParams,
  PairingStarted,
  PairingStatus,
  Screen,
  ScreenCommandBody,
  ScreenCommandResult,
  ScreenIdParams,
  ScreenList,
  ScreenPairBody,
  StatusResult,
  TestAlarmBody,
  TestAlarmResult,
} from '../../../schemas/screens.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import { badRequest } from '../../errors.js';
import type { ScreenCommands } from './commands.js';

const MONITOR_ID = 'monitor_id missing or in wrong format';
const SCREEN_ID = 'screen_id missing or in wrong format';
const monitorParams = { schema: MonitorIdParams, message: MONITOR_ID };
const screenParams = { schema: ScreenIdParams, message: SCREEN_ID };
const commandBody = {
  schema: ScreenCommandBody,
  message: 'command missing or not one of reload, identify, sleep, wake',
};
const commandResult = {
  status: 200,
  schema: ScreenCommandResult,
  description: 'Which screens acknowledged within 5 s and which did not',
} as const;

/** The screen fleet's operation declarations. */
export function screenOperations(screens: ScreenCommands): Operation[] {
  return [
    defineOperation({
      label: 'F1',
      operationId: 'startScreenPairing',
      method: 'post',
      path: '/api/v1/screens/pairing',
      summary: 'Start pairing a screen (no credential): a code to show, and the secret to poll with',
      description:
        'The code is 8 characters from an alphabet without look-alikes, valid 10 minutes. Limited to ' +
        '60 per minute and client address (screens of one station share an address).',
      public: true,
      perMinute: 60,
      response: { status: 201, schema: PairingStarted, description: 'The pairing' },
      errors: [],
      handler: () => screens.pairings.start(),
    }),
    defineOperation({
      label: 'F2',
      operationId: 'pollScreenPairing',
      method: 'get',
      path: '/api/v1/screens/pairing/:pairingId',
      summary: 'Poll a pairing (header Pairing-Secret): waiting, or once the screen token',
      description:
        'After the token was delivered, or once the pairing expired or the secret is wrong: 404. Limited ' +
        'to 600 per minute and client address (a screen polls every 2 s; a station may pair many at once).',
      public: true,
      perMinute: 600,
      params: { schema: PairingIdParams, message: 'pairingId missing or in wrong format' },
      response: {
        status: 200,
        schema: PairingStatus,
        description: 'Waiting, or paired with the screen token (exactly once)',
      },
      errors: [400, 404],
      handler: ({ params, ctx }) => {
        const secret = ctx.get('Pairing-Secret');
        if (!secret || secret.length > 200)
          throw badRequest('invalid_parameter', 'Pairing-Secret header missing or in wrong format', [
            { in: 'header', path: 'Pairing-Secret', problem: 'is required' },
          ]);
        return screens.pairings.poll(params.pairingId, secret);
      },
    }),
    defineOperation({
      label: 'F3',
      operationId: 'pairScreen',
      method: 'post',
      path: '/api/v1/monitor/:monitor_id/screens',
      summary: 'Pair the screen showing `code` with this monitor',
      description:
        'Organization admins and the API key. A wrong or expired code is 404 "Pairing code not found ' +
        'or expired"; more than 10 wrong codes per minute and credential are refused with 429.',
      params: monitorParams,
      body: { schema: ScreenPairBody, message: 'code and name are required' },
      response: {
        status: 201,
        schema: Screen,
        description: 'The paired screen; it receives its token at its next poll (F2)',
      },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => screens.pair(actor, params.monitor_id, body.code, body.name),
    }),
    defineOperation({
      label: 'F4',
      operationId: 'listScreens',
      method: 'get',
      path: '/api/v1/monitor/:monitor_id/screens',
      summary: 'List the screens of a monitor with their health',
      description:
        "Members, admins and the API key of the monitor's organization read. online turns false after " +
        'SCREEN_OFFLINE_AFTER_MS (default 120 s) without a connection; versionShown against the ETag ' +
        'of M6 tells whether a screen shows the current data.',
      params: monitorParams,
      response: { status: 200, schema: ScreenList, description: 'The screens, by ID' },
      errors: [400, 404],
      handler: ({ actor, params }) => screens.list(actor, params.monitor_id),
    }),
    defineOperation({
      label: 'F5',
      operationId: 'deleteScreen',
      method: 'delete',
      path: '/api/v1/screens/:screen_id',
      summary: 'Remove a screen: its token is revoked and it returns to its pairing code',
      description:
        "Organization admins and the API key. The screen's token is revoked and its connections are " +
        'closed at once, so it shows a new pairing code.',
      params: screenParams,
      response: { status: 200, schema: StatusResult, description: 'Deleted' },
      errors: [400, 403, 404],
      async handler({ actor, params }) {
        await screens.remove(actor, params.screen_id);
        return { status: 'deleted' };
      },
    }),
    defineOperation({
      label: 'F6',
      operationId: 'commandScreen',
      method: 'post',
      path: '/api/v1/screens/:screen_id/commands',
      summary: 'Send reload, identify, sleep or wake to one screen; answers when it acknowledged (at most 5 s)',
      description:
        'Organization admins and the API key. The command goes to the screen over the hub; the answer ' +
        'waits for its acknowledgement at most 5 s, and a screen that is offline or silent is listed ' +
        'in missing (nothing is queued for it).',
      params: screenParams,
      body: commandBody,
      response: commandResult,
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => screens.command(actor, params.screen_id, body.command),
    }),
    defineOperation({
      label: 'F7',
      operationId: 'commandMonitorScreens',
      method: 'post',
      path: '/api/v1/monitor/:monitor_id/screens/commands',
      summary:
        'Send reload, identify, sleep or wake to every screen of a monitor; answers when they acknowledged (at most 5 s)',
      description:
        'Organization admins and the API key. Every screen paired with the monitor gets the command; ' +
        'the answer waits at most 5 s and lists which screens acknowledged and which are missing (nothing ' +
        'is queued for offline screens).',
      params: monitorParams,
      body: commandBody,
      response: commandResult,
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) => screens.commandMonitor(actor, params.monitor_id, body.command),
    }),
    defineOperation({
      label: 'F8',
      operationId: 'startTestAlarm',
      method: 'post',
      path: '/api/v1/monitor/:monitor_id/test-alarm',
      summary: "Show a test alarm on the monitor's screens (marked TEST; ends by itself)",
      description:
        "Never touches the monitor's alarming data, versions or incident log. durationSeconds 5–600, " +
        'default 60. A real alarm arriving meanwhile replaces it on the screens.',
      params: monitorParams,
      body: { schema: TestAlarmBody, message: 'message or durationSeconds in wrong format' },
      response: { status: 200, schema: TestAlarmResult, description: 'When the test alarm ends' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, params, body }) =>
        screens.testAlarm(actor, params.monitor_id, body.message ?? '', body.durationSeconds ?? 60),
    }),
  ];
}
