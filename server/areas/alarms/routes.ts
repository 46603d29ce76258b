// The alarms area's operations AL1–AL4, the escalation policy W4 and the gateways' inbound doors IN1, IN2
// (docs/alarms.md).
import {
  AL1Body,
  AL2Query,
  Alarm,
  AlarmDetail,
  AlarmIdParams,
  AlarmList,
  EscalationBody,
  EscalationParams,
  EscalationPolicy,
  IN1Body,
  IN2Body,
  InboundAccepted,
} from '../../../schemas/alarms.js';
import type { Context } from 'koa';
import { defineOperation, type Operation } from '../../http/operation.js';
import type { AlarmCommands } from './commands.js';
import type { EscalationPolicies } from './escalation.js';
import type { InboundAlarms } from './inbound.js';

/** The alarms area's commands (built in server/areas/index.ts). */
export interface AlarmAreaCommands {
  alarms: AlarmCommands;
  escalation: EscalationPolicies;
  inbound: InboundAlarms;
}

const ALARM = 'Alarm in wrong format or required field missing';
const ALARM_ID = 'alarmId missing or in wrong format';
const INBOUND = 'Inbound message in wrong format';
const ORGANIZATION_ID = 'organizationId missing or in wrong format';
const ESCALATION_DOC =
  "With a policy, an alarm's deliveries on its `channels` to a member whose push is under way (the alarm " +
  "has an app delivery to him) wait (`waiting` in AL3, with `dueAt`: the alarm's start plus " +
  '`pushReceiptWithinSeconds`). His push confirmed (push/delivered) or his answer before then skips them ' +
  '(`skipped`, with `reason`); otherwise they go then. Members without a device get them at once. ' +
  'Without a policy (`pushReceiptWithinSeconds: null`, the default) every channel goes at once.';

/** The alarms area's operation declarations. */
export function alarmOperations({ alarms, escalation, inbound }: AlarmAreaCommands): Operation[] {
  // IN1 and IN2: 401 before the body is looked at, unless the gateway's token is sent.
  const gatewayToken = async ({ ctx }: { ctx: Context }) =>
    inbound.checkToken(ctx.headers['gateway-token'] === undefined ? undefined : ctx.get('Gateway-Token'));
  return [
    defineOperation({
      label: 'AL1',
      operationId: 'raiseAlarm',
      method: 'post',
      path: '/api/v1/alarms',
      summary:
        "Raise an alarm: shown on the organization's monitors, delivered to its members (admins and the API key)",
      description:
        'Shown at once on `monitorIds` (default: every monitor of the organization) as their alarming ' +
        "data, with eventId = the alarm's id; then delivered over `channels` (default app, sms, call) " +
        'to every active device, mobile and phone of the members, unless the organization disabled the ' +
        'channel. Answered once the alarm is stored and shown, before its deliveries are built: ' +
        '`recipients` counts none yet; AL3 and the hub event alarm:updated count them once stored. ' +
        'With the header `Idempotency-Key` (1–200 characters), the same key within 24 hours ' +
        'answers the alarm it raised with 200 instead of raising another; 409 while the first request ' +
        'with the key is still being answered.',
      body: { schema: AL1Body, message: ALARM },
      response: {
        status: 201,
        schema: Alarm,
        description: 'The alarm raised (200: the alarm an earlier request with the same Idempotency-Key raised)',
      },
      errors: [400, 403, 409, 413, 415],
      handler: async ({ actor, body, ctx }) => {
        const key = ctx.get('Idempotency-Key');
        const { alarm, created } = await alarms.create(
          actor,
          body,
          ctx.headers['idempotency-key'] === undefined ? undefined : key,
        );
        if (!created) ctx.state.status = 200;
        return alarm;
      },
    }),
    defineOperation({
      label: 'AL2',
      operationId: 'listAlarms',
      method: 'get',
      path: '/api/v1/alarms',
      summary: "List an organization's alarms, newest first (members read)",
      description:
        '`active=true`: running alarms only, `active=false`: ended ones only. `total` counts every alarm ' +
        'the filter selects.',
      query: { schema: AL2Query, message: 'organization_id missing or in wrong format' },
      response: { status: 200, schema: AlarmList, description: 'A page of alarms and how many there are' },
      errors: [400, 403],
      handler: ({ actor, query }) => alarms.list(actor, query),
    }),
    defineOperation({
      label: 'AL3',
      operationId: 'getAlarm',
      method: 'get',
      path: '/api/v1/alarms/:alarmId',
      summary: 'An alarm with every delivery and answer (members read)',
      description:
        "Deliveries show their target masked (the last 3 characters). Another organization's alarm is a 404.",
      params: { schema: AlarmIdParams, message: ALARM_ID },
      response: { status: 200, schema: AlarmDetail, description: 'The alarm, its deliveries and its answers' },
      errors: [400, 404],
      handler: ({ actor, params }) => alarms.get(actor, params.alarmId),
    }),
    defineOperation({
      label: 'AL4',
      operationId: 'endAlarm',
      method: 'post',
      path: '/api/v1/alarms/:alarmId/end',
      summary: 'End an alarm on its monitors (admins and the API key)',
      description: 'Ending an ended alarm answers it unchanged. Deliveries still being retried go on.',
      params: { schema: AlarmIdParams, message: ALARM_ID },
      response: { status: 200, schema: Alarm, description: 'The ended alarm' },
      errors: [400, 403, 404],
      handler: ({ actor, params }) => alarms.end(actor, params.alarmId),
    }),
    defineOperation({
      label: 'W4',
      operationId: 'setEscalationPolicy',
      method: 'put',
      path: '/api/v1/organizations/:organizationId/escalation',
      summary: 'Set when SMS and calls wait for the push to be confirmed (admins and the API key)',
      description: `${ESCALATION_DOC} It holds for alarms raised from then on.`,
      params: { schema: EscalationParams, message: ORGANIZATION_ID },
      body: { schema: EscalationBody, message: 'Escalation policy in wrong format or required field missing' },
      response: { status: 200, schema: EscalationPolicy, description: 'The policy now' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, params, body }) => escalation.set(actor, params.organizationId, body),
    }),
    defineOperation({
      label: 'W4-get',
      operationId: 'getEscalationPolicy',
      method: 'get',
      path: '/api/v1/organizations/:organizationId/escalation',
      summary: "The organization's escalation policy (members and the API key read)",
      description: ESCALATION_DOC,
      params: { schema: EscalationParams, message: ORGANIZATION_ID },
      response: { status: 200, schema: EscalationPolicy, description: 'The policy (never set: none)' },
      errors: [400, 403],
      handler: ({ actor, params }) => escalation.read(actor, params.organizationId),
    }),
    defineOperation({
      label: 'IN1',
      operationId: 'receiveSms',
      method: 'post',
      path: '/api/v1/inbound/sms',
      summary: "An SMS the organization's number received, from the SMS gateway (header Gateway-Token)",
      description:
        "Raises an alarm when the sender's number has an sms-alarming configuration (S3) and a word " +
        'of the text is its PIN. The answer is 202 whether or not anything matched. Every word of 4–8 ' +
        "digits is a try: a sender's wrong tries are limited to 5 per 10 minutes, and past that its " +
        'messages are ignored until the limit refills (a text with more than 5 such words matches nothing). ' +
        '6,000 requests per minute per gateway address.',
      public: true,
      perMinute: 6_000,
      authorize: gatewayToken,
      body: { schema: IN1Body, message: INBOUND },
      response: { status: 202, schema: InboundAccepted, description: 'Received' },
      errors: [400, 413, 415],
      handler: ({ body }) => inbound.sms(body),
    }),
    defineOperation({
      label: 'IN2',
      operationId: 'receiveCall',
      method: 'post',
      path: '/api/v1/inbound/call',
      summary:
        "A call the organization's number received with the digits keyed, from the voice gateway (header Gateway-Token)",
      description:
        "Raises an alarm (with the configuration's alarm template) when the caller's number has a call-alarming " +
        'configuration (C3) whose PIN the digits are. The answer is 202 whether or not anything matched; ' +
        'wrong PINs are limited as for IN1.',
      public: true,
      perMinute: 6_000,
      authorize: gatewayToken,
      body: { schema: IN2Body, message: INBOUND },
      response: { status: 202, schema: InboundAccepted, description: 'Received' },
      errors: [400, 413, 415],
      handler: ({ body }) => inbound.call(body),
    }),
  ];
}
