// The app area's operations A1–A11 and push/delivered (docs/api.md "REST API"), compatible with GroupAlarm's
// 2019 app API, and W1, the Web Push key (docs/members-app.md "Web Push"). The flag and any-active shapes
// are the channels' shared ones.
import {
  AnswerData,
  AnswerParams,
  ConfirmTokenParams,
  Device,
  DeviceCreate,
  DeviceIdParams,
  DeviceList,
  DeviceUpdate,
  FeedbackBody,
  FeedbackQuery,
  FeedbackResult,
  SavedResult,
  TestPushResult,
  WebPushKey,
} from '../../../schemas/app.js';
import { DeleteResult, OptionalOrganizationQuery, OwnerQuery } from '../../../schemas/channels.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import { deleted, saved } from '../channels/results.js';
import type { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { ORGANIZATION_ID, OWNER_ID, PAYLOAD, idMessage } from '../channels/messages.js';
import { TOKEN_INVALID, type PushConfirmations } from './confirmations.js';
import { deviceProblems, presentDevice, type Devices } from './devices.js';
import { FEEDBACK_NOT_SET, type AlarmFeedback } from './feedback.js';
import type { TestPushes } from './push.js';
import type { AlarmReplies } from './replies.js';
import type { VapidKeys } from './vapid.js';

const DEVICE_ID = idMessage('deviceID');
const SCOPE =
  'the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to';

/** The app area's commands (built in server/areas/index.ts). */
export interface AppCommands {
  devices: Devices;
  confirmations: PushConfirmations;
  pushes: TestPushes;
  feedback: AlarmFeedback;
  flags: ChannelFlags;
  replies: AlarmReplies;
  vapid: VapidKeys;
}

/** The app area's operation declarations. */
export function appOperations({
  devices,
  confirmations,
  pushes,
  feedback,
  flags,
  replies,
  vapid,
}: AppCommands): Operation[] {
  const byId = {
    params: { schema: DeviceIdParams, message: DEVICE_ID },
    query: { schema: OptionalOrganizationQuery, message: DEVICE_ID },
  };
  const savedResult = { status: 200, schema: SavedResult, description: 'Saved' } as const;

  return [
    defineOperation({
      label: 'A1',
      operationId: 'listDevices',
      method: 'get',
      path: '/api/v1/app/device',
      summary: `List a user's devices (${SCOPE})`,
      description:
        'Without organization_id a user lists his own devices; an organization admin or the API key ' +
        'lists those of a member (organization_id names the organization for a personal token). Devices ' +
        'are answered in ID order.',
      query: { schema: OwnerQuery, message: OWNER_ID },
      response: { status: 200, schema: DeviceList, description: 'The devices in ID order' },
      errors: [400, 403],
      handler: ({ actor, query }) => devices.list(actor, query.owner_id, query.organization_id),
    }),
    defineOperation({
      label: 'A2',
      operationId: 'createDevice',
      method: 'post',
      path: '/api/v1/app/device',
      summary: `Create a device for ownerID (${SCOPE}); its name must be new among the owner's devices (409)`,
      description:
        'os must contain "android" (FCM) or "ios" (APNs, which wants a hex device token), or the word "web" ' +
        '(Web Push: pushToken is the JSON of the PushSubscription, its endpoint at a known push service or an ' +
        'origin in WEB_PUSH_ORIGINS); id is ignored. ' +
        'A name the owner already uses (compared without case and surrounding spaces) is 409 conflict. ' +
        'Who may: the owner himself, or an admin or the API key of an organization the owner belongs to.',
      query: { schema: OptionalOrganizationQuery, message: ORGANIZATION_ID },
      body: { schema: DeviceCreate, message: PAYLOAD },
      bodyProblems: (body) => deviceProblems(body, devices.origins),
      response: { status: 200, schema: Device, description: 'The created device with its ID' },
      errors: [400, 403, 409, 413, 415],
      handler: ({ actor, query, body }) => devices.create(actor, query.organization_id, body),
    }),
    defineOperation({
      label: 'A3',
      operationId: 'getDevice',
      method: 'get',
      path: '/api/v1/app/device/:deviceID',
      summary: 'Get a device',
      description:
        'The owner reads his device without organization_id; an admin or the API key of an organization ' +
        'the owner belongs to reads it with organization_id (an API key implies its own). A device the ' +
        'caller cannot reach is 404.',
      ...byId,
      response: { status: 200, schema: Device, description: 'The device' },
      errors: [400, 403, 404],
      handler: async ({ actor, params, query }) =>
        presentDevice(await devices.owned.reachable(actor, params.deviceID, query.organization_id)),
    }),
    defineOperation({
      label: 'A4',
      operationId: 'updateDevice',
      method: 'put',
      path: '/api/v1/app/device/:deviceID',
      summary: "Replace a device's configuration (ownerID cannot change; a name the owner already uses is a 409)",
      description:
        'The whole configuration is replaced (every field is required); id, when given, must be the ' +
        "path's deviceID and ownerID cannot change. A name the owner already uses is 409 conflict. Who may: as A3.",
      ...byId,
      body: { schema: DeviceUpdate, message: PAYLOAD },
      bodyProblems: (body) => deviceProblems(body, devices.origins),
      response: { status: 200, schema: Device, description: 'The updated device' },
      errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, params, query, body }) => devices.update(actor, params.deviceID, query.organization_id, body),
    }),
    defineOperation({
      label: 'A5',
      operationId: 'sendTestPush',
      method: 'post',
      path: '/api/v1/app/device/:deviceID/test-push',
      summary:
        'Send a test push (APNs for ios, FCM for android, Web Push for web) with a confirmation token; a dead push token ' +
        "sets the device inactive (status device_deactivated). 503 push_unavailable when the platform's " +
        'gateway is not configured or unreachable, 502 push_failed when it refuses otherwise',
      description:
        'Sends a test push to the device and answers what the gateway said; its confirmToken is what ' +
        'push/delivered and A11 take (a web push carries it as answerToken in {"type": "test", ...}). A push ' +
        'token the gateway reports dead (a web push service: 404 or 410) sets the device inactive ' +
        "(status device_deactivated). 503 push_unavailable (with Retry-After) when the platform's gateway " +
        'is not configured or unreachable, 502 push_failed when it refuses otherwise.',
      ...byId,
      response: { status: 200, schema: TestPushResult, description: 'What the gateway said' },
      errors: [400, 403, 404, 502],
      handler: ({ actor, params, query }) => pushes.send(actor, params.deviceID, query.organization_id),
    }),
    defineOperation({
      label: 'A6',
      operationId: 'deleteDevice',
      method: 'delete',
      path: '/api/v1/app/device/:deviceID',
      summary: 'Delete a device',
      description: 'Deletes the device for good; who may: as A3. Deleting it again is 404.',
      ...byId,
      response: { status: 200, schema: DeleteResult, description: 'Deleted' },
      errors: [400, 403, 404],
      handler: ({ actor, params, query }) =>
        deleted(devices.owned.remove(actor, params.deviceID, query.organization_id)),
    }),
    ...flagOperations(
      'app',
      {
        anyActive: { label: 'A7', operationId: 'getAppAnyActive' },
        get: { label: 'A8', operationId: 'getAppDisabled' },
        set: { label: 'A9', operationId: 'setAppDisabled' },
      },
      flags,
      devices.owned,
    ),
    defineOperation({
      label: 'A10',
      operationId: 'setAlarmFeedback',
      method: 'post',
      path: '/api/v1/app/feedback',
      summary:
        "Set a device's feedback to an alarm (stored per organization, alarm and device: a later one " +
        "replaces it; published as app:feedback to the organization's hub room). The organization is " +
        "an API key's own, or organization_id for a personal token",
      description:
        "Records whether the device's user comes (response) and his distance and travel time. One feedback " +
        'is kept per organization, alarm and device: a later one replaces it, so repeating a request ' +
        "is harmless. Published as app:feedback to the organization's hub room; alarmID is required " +
        '(400 "organizationID or alarmID not set").',
      query: { schema: FeedbackQuery, message: FEEDBACK_NOT_SET },
      body: { schema: FeedbackBody, message: PAYLOAD },
      response: { status: 200, schema: FeedbackResult, description: 'Recorded' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, query, body }) => feedback.record(actor, query.organization_id, body),
    }),
    defineOperation({
      label: 'A11',
      operationId: 'answerPush',
      method: 'post',
      path: '/api/v1/app/push/answered/:token/:answer',
      summary:
        'Answer a push (yes or no) with the answer data, once per confirmation token, by the app of ' +
        "the device's owner; an unknown, expired or answered token is a 400",
      description:
        "Only the app of the device's owner (his personal access token) answers, once per confirmation " +
        'token: an unknown, expired or already answered token is a 400, another user is a 403.',
      params: { schema: AnswerParams, message: TOKEN_INVALID },
      body: { schema: AnswerData, message: TOKEN_INVALID },
      response: savedResult,
      errors: [400, 403, 413, 415],
      // The answer to an alarm's push also counts for that alarm.
      handler: ({ actor, params, body }) =>
        saved(
          confirmations.answer(actor, params.token, params.answer, body).then((push) =>
            push.alarmId && push.organizationID
              ? replies.answered({
                  organizationId: push.organizationID,
                  alarmId: push.alarmId,
                  userId: push.ownerID,
                  response: params.answer === 'yes',
                  distance: body.distance ?? null,
                  duration: body.duration ?? null,
                })
              : undefined,
          ),
        ),
    }),
    defineOperation({
      label: 'A11-delivered',
      operationId: 'confirmPushDelivered',
      method: 'post',
      path: '/api/v1/app/push/delivered/:token',
      summary: 'Record that a push arrived on the device (by the app of its owner; repeating it changes nothing)',
      description:
        "Only the app of the device's owner (his personal access token) confirms; an unknown or expired " +
        'token is a 400. Repeating it changes nothing and answers 200 again.',
      params: { schema: ConfirmTokenParams, message: TOKEN_INVALID },
      response: savedResult,
      errors: [400, 403],
      handler: ({ actor, params }) =>
        saved(
          confirmations
            .delivered(actor, params.token)
            .then((push) => (push.alarmId ? replies.delivered(push.alarmId, push.deviceId) : undefined)),
        ),
    }),
    defineOperation({
      label: 'W1',
      operationId: 'getWebPushKey',
      method: 'get',
      path: '/api/v1/webpush/key',
      summary: "The VAPID public key a browser subscribes with (Web Push's applicationServerKey); no credential",
      description:
        'The same key on every process of the installation: VAPID_PUBLIC_KEY, or the pair the installation made ' +
        'on its first need and keeps (docs/members-app.md "Web Push"). A web device registered with A2 carries the ' +
        'PushSubscription made with it.',
      public: true,
      response: { status: 200, schema: WebPushKey, description: 'The VAPID public key' },
      errors: [],
      handler: async () => ({ publicKey: (await vapid.get()).publicKey }),
    }),
  ];
}
