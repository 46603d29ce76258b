// The app area's operations A1–A11 and push/delivered (CONTRACT.md §2), compatible with GroupAlarm's
// 2019 app API. The flag and any-active shapes are the channels' shared ones.
import type { AnswerDataInput, AnswerParamsInput, ConfirmTokenInput, DeviceCreateInput, DeviceIdInput, DeviceUpdateInput, FeedbackInput, FeedbackQueryInput } from '../../../schemas/app.js';
import type { OptionalOrganizationInput, OwnerQueryInput } from '../../../schemas/channels.js';
import { defineOperation, type Operation } from '../../http/operation.js';
import { deleted, saved } from '../channels/results.js';
import type { AreaDeps } from '../index.js';
import { ChannelFlags } from '../channels/flags.js';
import { flagOperations } from '../channels/flag-routes.js';
import { ORGANIZATION_ID, OWNER_ID, PAYLOAD, idMessage } from '../channels/messages.js';
import { PushConfirmations, TOKEN_INVALID } from './confirmations.js';
import { Devices, presentDevice } from './devices.js';
import { AlarmFeedback, FEEDBACK_NOT_SET } from './feedback.js';
import { TestPushes } from './push.js';
import { PushGateways } from './push/gateways.js';

const DEVICE_ID = idMessage('deviceID');
const SCOPE = 'the owner himself without organization_id, or an admin or the API key of an organization the owner belongs to';

/** The app area's operation declarations. */
export function appOperations(deps: AreaDeps): Operation[] {
  const { db, config } = deps;
  const devices = new Devices(db);
  const confirmations = new PushConfirmations(db, config.push.confirmTtlSeconds);
  const pushes = new TestPushes(devices, new PushGateways(config.push), confirmations);
  const feedback = new AlarmFeedback(db, devices, deps.events);
  const byId = { params: { schema: 'DeviceIdParams', message: DEVICE_ID }, query: { schema: 'OptionalOrganizationQuery', message: DEVICE_ID } };
  const savedResult = { status: 200, schema: 'SavedResult', description: 'Saved' } as const;

  return [
    defineOperation<OwnerQueryInput>({
      label: 'A1', method: 'get', path: '/api/v1/app/device',
      summary: `List a user's devices (${SCOPE})`,
      query: { schema: 'OwnerQuery', message: OWNER_ID },
      response: { status: 200, schema: 'DeviceList', description: 'The devices in ID order' }, errors: [400, 403],
      handler: ({ actor, query }) => devices.list(actor, query.owner_id, query.organization_id),
    }),
    defineOperation<OptionalOrganizationInput, unknown, DeviceCreateInput>({
      label: 'A2', method: 'post', path: '/api/v1/app/device',
      summary: `Create a device for ownerID (${SCOPE}); its name must be new among the owner's devices (409)`,
      query: { schema: 'OptionalOrganizationQuery', message: ORGANIZATION_ID }, body: { schema: 'DeviceCreate', message: PAYLOAD },
      response: { status: 200, schema: 'Device', description: 'The created device with its ID' }, errors: [400, 403, 409, 413, 415],
      handler: ({ actor, query, body }) => devices.create(actor, query.organization_id, body),
    }),
    defineOperation<OptionalOrganizationInput, DeviceIdInput>({
      label: 'A3', method: 'get', path: '/api/v1/app/device/:deviceID',
      summary: 'Get a device',
      ...byId,
      response: { status: 200, schema: 'Device', description: 'The device' }, errors: [400, 403, 404],
      handler: async ({ actor, params, query }) => presentDevice(await devices.owned.reachable(actor, params.deviceID, query.organization_id)),
    }),
    defineOperation<OptionalOrganizationInput, DeviceIdInput, DeviceUpdateInput>({
      label: 'A4', method: 'put', path: '/api/v1/app/device/:deviceID',
      summary: 'Replace a device\'s configuration (ownerID cannot change; a name the owner already uses is a 409)',
      ...byId, body: { schema: 'DeviceUpdate', message: PAYLOAD },
      response: { status: 200, schema: 'Device', description: 'The updated device' }, errors: [400, 403, 404, 409, 413, 415],
      handler: ({ actor, params, query, body }) => devices.update(actor, params.deviceID, query.organization_id, body),
    }),
    defineOperation<OptionalOrganizationInput, DeviceIdInput>({
      label: 'A5', method: 'post', path: '/api/v1/app/device/:deviceID/test-push',
      summary: 'Send a test push (APNs for ios, FCM for android) with a confirmation token; a dead push token sets the device inactive (status device_deactivated). 503 push_unavailable when the platform\'s gateway is not configured or unreachable, 502 push_failed when it refuses otherwise',
      ...byId,
      response: { status: 200, schema: 'TestPushResult', description: 'What the gateway said' }, errors: [400, 403, 404, 502],
      handler: ({ actor, params, query }) => pushes.send(actor, params.deviceID, query.organization_id),
    }),
    defineOperation<OptionalOrganizationInput, DeviceIdInput>({
      label: 'A6', method: 'delete', path: '/api/v1/app/device/:deviceID',
      summary: 'Delete a device',
      ...byId,
      response: { status: 200, schema: 'DeleteResult', description: 'Deleted' }, errors: [400, 403, 404],
      handler: ({ actor, params, query }) => deleted(devices.owned.remove(actor, params.deviceID, query.organization_id)),
    }),
    ...flagOperations('app', { anyActive: 'A7', get: 'A8', set: 'A9' }, new ChannelFlags(db), devices.owned),
    defineOperation<FeedbackQueryInput, unknown, FeedbackInput>({
      label: 'A10', method: 'post', path: '/api/v1/app/feedback',
      summary: 'Set a device\'s feedback to an alarm (stored per organization, alarm and device: a later one replaces it; published as app:feedback to the organization\'s hub room). The organization is an API key\'s own, or organization_id for a personal token',
      query: { schema: 'FeedbackQuery', message: FEEDBACK_NOT_SET }, body: { schema: 'FeedbackBody', message: PAYLOAD },
      response: { status: 200, schema: 'FeedbackResult', description: 'Recorded' }, errors: [400, 403, 404, 413, 415],
      handler: ({ actor, query, body }) => feedback.record(actor, query.organization_id, body),
    }),
    defineOperation<unknown, AnswerParamsInput, AnswerDataInput>({
      label: 'A11', method: 'post', path: '/api/v1/app/push/answered/:token/:answer',
      summary: 'Answer a push (yes or no) with the answer data, once per confirmation token, by the app of the device\'s owner; an unknown, expired or answered token is a 400',
      params: { schema: 'AnswerParams', message: TOKEN_INVALID }, body: { schema: 'AnswerData', message: TOKEN_INVALID },
      response: savedResult, errors: [400, 403, 413, 415],
      handler: ({ actor, params, body }) => saved(confirmations.answer(actor, params.token, params.answer, body)),
    }),
    defineOperation<unknown, ConfirmTokenInput>({
      label: 'A11-delivered', method: 'post', path: '/api/v1/app/push/delivered/:token',
      summary: 'Record that a push arrived on the device (by the app of its owner; repeating it changes nothing)',
      params: { schema: 'ConfirmTokenParams', message: TOKEN_INVALID },
      response: savedResult, errors: [400, 403],
      handler: ({ actor, params }) => saved(confirmations.delivered(actor, params.token)),
    }),
  ];
}
