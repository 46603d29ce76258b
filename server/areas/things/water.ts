// Water sources near an alarm, for the wall's map (docs/display.md "Water sources"). A monitor's
// configuration names the things entity that holds them (common/water-sources.ts); a screen asks the
// hub for those near the position of an alarm its monitor shows (`water:nearby`) and hears
// `water:changed` when records in the cells it was answered from change. A screen gets the few nearby
// records, a handful of their fields, for the positions of its monitor's alarms only: never the
// entity's list, and its token opens nothing of the things area's REST operations.
import type { MonitorCommands } from '../monitor/commands.js';
import type { WaterNearbyRequest, WaterNearbyResult, WaterSourceView } from '../../../common/hub-protocol.js';
import type { JsonObject } from '../../../common/monitor-data.js';
import { waterSourcesOf, type WaterSourcesConfig } from '../../../common/water-sources.js';
import { conflict, forbidden, notFound } from '../../errors.js';
import type { Caller } from '../../identity/actor.js';
import { canReadRecords } from '../../identity/policy.js';
import { coordinatesOf } from './fields.js';
import type { EntityDoc, FieldDoc, ThingsModels } from './models.js';
import { distanceMeters, type PositionIndex } from './positions.js';
import { valuesOf } from './presenter.js';
import type { RecordStore } from './store.js';

/** Status texts that mean a source cannot be used, unless the configuration lists its own. */
const OUT_OF_SERVICE =
  /au(ß|ss)er betrieb|defekt|gesperrt|nicht betriebsbereit|unbrauchbar|kaputt|out of service|out-of-service|broken|not working|inoperable|unusable|closed/i;

/** The fields a monitor's setting reads, chosen by ID or else by type and name. */
interface WaterFields {
  position: FieldDoc;
  name?: FieldDoc;
  kind?: FieldDoc;
  status?: FieldDoc;
}

function pick(
  entity: EntityDoc,
  configured: string | undefined,
  types: string[],
  name: RegExp | null,
): FieldDoc | undefined {
  if (configured !== undefined) return entity.fields.find((f) => f.id === configured);
  const typed = entity.fields.filter((f) => types.includes(f.type));
  return (name ? typed.find((f) => name.test(f.name)) : undefined) ?? (name ? undefined : typed[0]);
}

/** The entity's fields for the setting; null when it has no coordinates field to search by. */
export function waterFields(entity: EntityDoc, config: WaterSourcesConfig): WaterFields | null {
  const position = pick(entity, config.positionFieldId, ['coordinates'], null);
  if (!position || position.type !== 'coordinates') return null;
  return {
    position,
    name:
      pick(entity, config.nameFieldId, ['text'], /name|bezeichnung|nummer|number|\bnr\b|kennung/i) ??
      pick(entity, undefined, ['text'], null),
    kind: pick(entity, config.kindFieldId, ['selection', 'text'], /kind|type|art|typ/i),
    status:
      pick(
        entity,
        config.statusFieldId,
        ['boolean', 'selection', 'text'],
        /status|zustand|working|betriebsbereit|in service|einsatzbereit|funktion/i,
      ) ?? pick(entity, undefined, ['boolean'], null),
  };
}

/** Whether a status value leaves the source usable (no status field or no value: usable). */
export function inService(field: FieldDoc | undefined, value: string, config: WaterSourcesConfig): boolean {
  if (!field || value === '') return true;
  if (field.type === 'boolean') return value !== 'false';
  if (config.outOfServiceValues) return !config.outOfServiceValues.some((v) => v.toLowerCase() === value.toLowerCase());
  return !OUT_OF_SERVICE.test(value);
}

/** True when an alarm of the monitor's data stands at exactly this position. */
function showsPosition(
  data: { alarmData: JsonObject; alarmDataList: Record<string, JsonObject> },
  latitude: number,
  longitude: number,
): boolean {
  return [data.alarmData, ...Object.values(data.alarmDataList)].some((alarm) => {
    const geo = alarm.geo;
    return (
      typeof geo === 'object' &&
      geo !== null &&
      !Array.isArray(geo) &&
      geo.latitude === latitude &&
      geo.longitude === longitude
    );
  });
}

/** Answers screens' `water:nearby`. */
export class WaterSources {
  constructor(
    private readonly models: ThingsModels,
    private readonly store: RecordStore,
    private readonly positions: PositionIndex,
    private readonly monitors: Pick<MonitorCommands, 'readable' | 'data'>,
  ) {}

  /**
   * The water sources near an alarm the monitor shows, nearest first. `join` puts the asking socket into the entity's
   * room once the request is allowed, before any position is read: a change after that read reaches the socket.
   */
  async nearby(
    caller: Caller,
    request: WaterNearbyRequest,
    join: (entityId: string) => Promise<void>,
  ): Promise<WaterNearbyResult> {
    const { monitorId, latitude, longitude } = request;
    const monitor = await this.monitors.readable(caller, monitorId);
    const config = waterSourcesOf(monitor.config.configuration);
    if (!config)
      throw conflict('not_configured', 'This monitor names no water sources (configuration.waterSources.entityId)');
    // Only where an alarm stands: a screen cannot walk the map to read the entity record by record.
    if (!showsPosition((await this.monitors.data(caller, monitorId)).data, latitude, longitude)) {
      throw forbidden('No alarm of this monitor stands at this position');
    }
    const entity = await this.models.ThingEntity.findById(config.entityId).lean();
    if (!entity || entity.organizationID !== monitor.organizationID)
      throw notFound("The water sources entity was not found in the monitor's organization");
    // A screen of the monitor sees its water sources; a person sees them only where the entity grants
    // him its records (an admin and the API key always), as on the things area's REST operations.
    if (caller.kind !== 'screen' && !canReadRecords(caller, entity))
      throw forbidden('Not allowed to read the records of this entity');
    const fields = waterFields(entity, config);
    if (!fields)
      throw conflict(
        'not_configured',
        'The water sources entity has no coordinates field (or positionFieldId names none)',
      );
    await join(entity._id);

    const { cells, candidates } = await this.positions.near(
      entity,
      fields.position,
      latitude,
      longitude,
      config.radiusMeters,
    );
    const records = await this.store.of(entity.organizationID);
    const sources: Array<WaterSourceView & { exact: number }> = [];
    const taken = new Set<string>();
    // Nearest first by the index, read a batch at a time until enough are confirmed as stored. A record
    // counts only at the position it has now (an entry of a place it left is passed over: the entry of
    // its current place is in the queue too), so one that left never takes a nearer one's place.
    for (let next = 0; sources.length < config.max && next < candidates.length; next += config.max) {
      const batch = candidates.slice(next, next + config.max).filter((c) => !taken.has(c.id));
      const found = await Promise.all(batch.map((c) => records.findById(c.id, { entityID: 1, values: 1 }).lean()));
      for (const [k, record] of found.entries()) {
        if (!record || record.entityID !== entity._id || taken.has(record._id)) continue;
        const values = valuesOf(record);
        const at = coordinatesOf(values[fields.position.id]?.v);
        if (!at || at[0] !== batch[k].latitude || at[1] !== batch[k].longitude) continue;
        taken.add(record._id);
        const distance = distanceMeters({ latitude, longitude }, { latitude: at[0], longitude: at[1] });
        const textOf = (field: FieldDoc | undefined) => (field ? (values[field.id]?.v ?? '') : '');
        sources.push({
          id: record._id,
          name: textOf(fields.name).slice(0, 80),
          kind: textOf(fields.kind).slice(0, 80),
          status: textOf(fields.status).slice(0, 80),
          inService: inService(fields.status, textOf(fields.status), config),
          latitude: at[0],
          longitude: at[1],
          distanceMeters: Math.round(distance),
          exact: distance,
        });
      }
    }
    sources.sort((a, b) => a.exact - b.exact || a.id.localeCompare(b.id));
    return {
      monitorId,
      latitude,
      longitude,
      entityId: entity._id,
      radiusMeters: config.radiusMeters,
      cells,
      sources: sources.slice(0, config.max).map(({ exact: _, ...source }) => source),
    };
  }
}
