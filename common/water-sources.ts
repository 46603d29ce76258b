// The monitor configuration key `waterSources` (docs/display.md "Water sources"), read alike by the
// server, which finds the sources near an alarm, and by the display client, which asks for them.
// No Node or browser APIs here: this module is bundled into the display client.
import type { JsonObject } from './monitor-data.js';

/** Which things entity holds the water sources, how far to look and how many to show. */
export interface WaterSourcesConfig {
  entityId: string;
  /** 50…2,000, default 300. */
  radiusMeters: number;
  /** 1…20, default 8: the nearest ones. */
  max: number;
  /** Field IDs; absent ones are chosen from the entity's fields by type and name (see the docs). */
  positionFieldId?: string;
  nameFieldId?: string;
  kindFieldId?: string;
  statusFieldId?: string;
  /** Values of the status field that mean out of service (case-insensitive); default: a usual list. */
  outOfServiceValues?: string[];
}

export const WATER_DEFAULTS = { radiusMeters: 300, max: 8, minRadius: 50, maxRadius: 2_000, maxCount: 20 } as const;

const bounded = (v: unknown, fallback: number, min: number, max: number) =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
const id = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 64 ? v : undefined);

/** The monitor's water sources setting, or null when it names no entity. */
export function waterSourcesOf(configuration: JsonObject | undefined): WaterSourcesConfig | null {
  const raw = configuration?.waterSources;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const entityId = id(raw.entityId);
  if (!entityId) return null;
  const values = Array.isArray(raw.outOfServiceValues)
    ? raw.outOfServiceValues.filter((v): v is string => typeof v === 'string').slice(0, 50)
    : undefined;
  const config: WaterSourcesConfig = {
    entityId,
    radiusMeters: bounded(
      raw.radiusMeters,
      WATER_DEFAULTS.radiusMeters,
      WATER_DEFAULTS.minRadius,
      WATER_DEFAULTS.maxRadius,
    ),
    max: bounded(raw.max, WATER_DEFAULTS.max, 1, WATER_DEFAULTS.maxCount),
  };
  for (const key of ['positionFieldId', 'nameFieldId', 'kindFieldId', 'statusFieldId'] as const) {
    const value = id(raw[key]);
    if (value) config[key] = value;
  }
  if (values) config.outOfServiceValues = values;
  return config;
}
