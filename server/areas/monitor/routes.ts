// The monitor area's operations M1–M10 (docs/api.md "REST API"), compatible with GroupAlarm's 2019 monitor API.
import { MessageResult } from '../../../schemas/common.js';
import {
  M10Body,
  M1Query,
  M2Body,
  M3Body,
  M7Body,
  M8Body,
  M9Body,
  Monitor,
  MonitorDataResult,
  MonitorIdParams,
  MonitorList,
} from '../../../schemas/monitor.js';
import { defineOperation, type Named, type Operation } from '../../http/operation.js';
import type { M3Input } from '../../../schemas/monitor.js';
import type { MonitorCommands, MonitorInput } from './commands.js';
import { presentMonitor } from './presenter.js';
import type { DataOp, DataSection, JsonObject } from '../../../common/monitor-data.js';
import { MONITOR_DATA_MAX_BYTES } from './store.js';

const MONITOR_FORMAT = 'Monitor in wrong format or required field missing';
const MONITOR_ID = 'monitor_id missing or in wrong format';
const REQUIRED_PARAMETER = 'Required parameter missing or in wrong format';

const idParams = { schema: MonitorIdParams, message: MONITOR_ID };
const dataParams = { schema: MonitorIdParams, message: REQUIRED_PARAMETER };
const saved = { status: 200, schema: MessageResult, description: 'Saved' } as const;

const WRITERS =
  "Organization admins and the API key of the monitor's organization write; screens receive each " +
  'write as monitor:patch.';
const LIMITS =
  `The merged data (all four maps) may hold at most ${MONITOR_DATA_MAX_BYTES} bytes of UTF-8 JSON: ` +
  `a write that would exceed it is refused with 413 payload_too_large and changes nothing. Each ` +
  `write raises the version (ETag of M6) by one. Alarm data writes that pass authorization are ` +
  `never refused for rate.`;

/** What a client must know about each data write, stated where the operation is. */
const DATA_RULES: Record<string, string> = {
  M7:
    `${WRITERS} Replaces the alarming data. An eventId also puts the event into alarmDataList (a ` +
    `known one is replaced). Setting {} clears the whole wall: alarmData becomes empty and every ` +
    `event leaves alarmDataList (end a single event of a split screen by sending it with an eventEndDate ` +
    `instead). ${LIMITS}`,
  M8:
    `${WRITERS} Merges into the active alarm: objects merge key by key, arrays and values (null ` +
    `too) replace. Without eventId (or with the current alarm's) it patches alarmData; with the ` +
    `eventId of another active event of alarmDataList it patches that event. A patch never raises ` +
    `an alarm again: when the alarm was cleared or has ended, or eventId names no active event, ` +
    `it is refused with 409 no_active_alarm and changes nothing (alarm systems send response counts ` +
    `late). An alarm is data naming an event or a message. ${LIMITS}`,
  M9: `${WRITERS} Replaces the meta data. Setting {} clears it. ${LIMITS}`,
  M10:
    `${WRITERS} Merges into the meta data: objects (tables among them) merge key by key, arrays ` +
    `and values replace. ${LIMITS}`,
};

/** RFC 9110 If-None-Match: a list of tags compared weakly (a gzipping proxy makes ours W/"n"), or *. */
function matchesEtag(header: string, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === etag;
  });
}

/** The monitor area's operation declarations. */
export function monitorOperations(monitors: MonitorCommands): Operation[] {
  const dataWrite = (
    names: Named,
    section: DataSection,
    op: DataOp,
    schema: typeof M7Body | typeof M8Body | typeof M9Body | typeof M10Body,
    summary: string,
  ) =>
    defineOperation({
      ...names,
      method: op === 'set' ? 'post' : 'patch',
      alsoMethods: op === 'set' ? ['put'] : undefined,
      path: `/api/v1/monitor/:monitor_id/data/${section === 'alarming' ? 'alarming' : 'meta'}`,
      summary,
      params: dataParams,
      body: { schema, message: REQUIRED_PARAMETER },
      response: saved,
      errors: op === 'patch' && section === 'alarming' ? [400, 403, 404, 409, 413, 415] : [400, 403, 404, 413, 415],
      description: DATA_RULES[names.label],
      // Alarm and response updates that pass authorization are never refused for rate; the per-monitor
      // write queue bounds them. Refused ones (another organization's key) count and get 429.
      rateLimited: false,
      authorize: ({ actor, params }) => monitors.dataWritable(actor, params.monitor_id),
      // One organization's flood waits in its own queue, its bodies unread: another's alarm goes on.
      // A body without a declared length (chunked) counts as the largest one allowed.
      admit: (owner, ctx) =>
        monitors.dataWrites.enter(owner.organizationID, Number(ctx.get('Content-Length')) || 1024 * 1024),
      async handler({ actor, params, body, authorized }) {
        // A parsed JSON body: its typed fields (optional ones may be absent) are JSON values to the reducer.
        const version = await monitors.write(actor, params.monitor_id, section, op, body as JsonObject, authorized);
        return { message: `${section === 'alarming' ? 'Alarming' : 'Meta'} data saved (version ${version})` };
      },
    });

  return [
    defineOperation({
      label: 'M1',
      operationId: 'listMonitors',
      method: 'get',
      path: '/api/v1/monitor',
      summary: 'List monitors of an organization',
      description:
        'Members, admins and the API key of the organization read its monitors; another organization ' +
        'is a 403. Configuration maps a client never set are {} and standbyDelay 0.',
      query: { schema: M1Query, message: 'organization missing or in wrong format' },
      response: { status: 200, schema: MonitorList, description: 'The monitors of the organization' },
      errors: [400, 403],
      handler: ({ actor, query }) => monitors.list(actor, query.organization),
    }),
    defineOperation({
      label: 'M2',
      operationId: 'updateMonitor',
      method: 'put',
      path: '/api/v1/monitor',
      summary: 'Update monitor (id in body; given fields replace the stored ones)',
      description:
        "Organization admins and the API key of the monitor's organization; a monitor of another organization " +
        'is 404. Only the given fields change (null stores as {}); organizationID cannot change (400). ' +
        'Configuration maps beyond 2 MiB of JSON are refused with 413 payload_too_large. Connected screens ' +
        'receive monitor:updated.',
      body: { schema: M2Body, message: MONITOR_FORMAT },
      response: { status: 200, schema: Monitor, description: 'The edited monitor' },
      errors: [400, 403, 404, 413, 415],
      handler: ({ actor, body }) => monitors.update(actor, body.id, body as MonitorInput),
    }),
    defineOperation({
      label: 'M3',
      operationId: 'createMonitor',
      method: 'post',
      path: '/api/v1/monitor',
      summary: 'Create monitor',
      description:
        'Organization admins and the API key of organizationID; id is ignored, the answer (201) carries ' +
        'the assigned one. Configuration maps left out start as {}, standbyDelay as 0.',
      body: { schema: M3Body, message: MONITOR_FORMAT },
      response: { status: 201, schema: Monitor, description: 'The created monitor with its ID' },
      errors: [400, 403, 413, 415],
      handler: ({ actor, body }) => monitors.create(actor, body as MonitorInput & M3Input),
    }),
    defineOperation({
      label: 'M4',
      operationId: 'getMonitor',
      method: 'get',
      path: '/api/v1/monitor/:monitor_id',
      summary: 'Get monitor',
      description:
        "Members, admins and the API key of the monitor's organization, and a screen token paired with " +
        'this monitor. A monitor of another organization is 404, so its existence does not leak.',
      params: idParams,
      response: { status: 200, schema: Monitor, description: 'The monitor' },
      errors: [400, 404],
      screens: true,
      handler: async ({ caller, params }) => presentMonitor(await monitors.readable(caller, params.monitor_id)),
    }),
    defineOperation({
      label: 'M5',
      operationId: 'deleteMonitor',
      method: 'delete',
      path: '/api/v1/monitor/:monitor_id',
      summary: 'Delete monitor and its data',
      description:
        'Organization admins and the API key. The monitor and its data (incident log included) are removed; ' +
        'connected screens receive monitor:deleted at once.',
      params: idParams,
      response: { status: 200, schema: MessageResult, description: 'Deleted' },
      errors: [400, 403, 404],
      async handler({ actor, params }) {
        await monitors.remove(actor, params.monitor_id);
        return { message: 'Monitor deleted' };
      },
    }),
    defineOperation({
      label: 'M6',
      operationId: 'getMonitorData',
      method: 'get',
      path: '/api/v1/monitor/:monitor_id/data',
      summary: 'Get all data of a monitor; ETag carries the data version',
      description:
        'Members, admins, the API key and a screen paired with the monitor read it. Events whose eventEndDate ' +
        'has passed are left out of alarmDataList. The ETag is the data version: send it in If-None-Match ' +
        'to get 304 while nothing changed; screens get live changes over the hub (/socket.io) instead of polling.',
      params: idParams,
      response: {
        status: 200,
        schema: MonitorDataResult,
        description: 'The four maps',
        headers: { ETag: 'The data version, quoted ("7"); If-None-Match with it answers 304' },
        conditional: true,
      },
      errors: [400, 404],
      screens: true,
      async handler({ caller, params, ctx }) {
        const { version, data } = await monitors.data(caller, params.monitor_id);
        ctx.set('ETag', `"${version}"`);
        ctx.set('Cache-Control', 'no-cache');
        ctx.state.notModified = matchesEtag(ctx.get('If-None-Match'), `"${version}"`);
        return data;
      },
    }),
    dataWrite(
      { label: 'M7', operationId: 'setMonitorAlarmingData' },
      'alarming',
      'set',
      M7Body,
      'Create or overwrite the alarming data (PUT accepted too)',
    ),
    dataWrite(
      { label: 'M8', operationId: 'patchMonitorAlarmingData' },
      'alarming',
      'patch',
      M8Body,
      'Patch fields of the alarming data (objects merge, arrays and values replace)',
    ),
    dataWrite(
      { label: 'M9', operationId: 'setMonitorMetaData' },
      'meta',
      'set',
      M9Body,
      'Create or overwrite the meta data (PUT accepted too)',
    ),
    dataWrite(
      { label: 'M10', operationId: 'patchMonitorMetaData' },
      'meta',
      'patch',
      M10Body,
      'Patch fields of the meta data (objects merge, arrays and values replace)',
    ),
  ];
}
