// Typed readers for the monitor's open property maps (configuration, configurationSplitScreen,
// configurationStandby). The maps are free-form, so every key has a default and a wrong type falls back
// to it instead of breaking the screen. The keys each view supports are listed at the top of that view.
import type { JsonObject } from '../../common/monitor-data.js';

/** A boolean key, or `fallback` when absent or not a boolean. */
export function bool(map: JsonObject | undefined, key: string, fallback: boolean): boolean {
  const v = map?.[key];
  return typeof v === 'boolean' ? v : fallback;
}

/** A finite number key clamped to [min, max], or `fallback`. */
export function int(map: JsonObject | undefined, key: string, fallback: number, min: number, max: number): number {
  const v = map?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : fallback;
}

/** A string key, or `fallback`. */
export function text(map: JsonObject | undefined, key: string, fallback = ''): string {
  const v = map?.[key];
  return typeof v === 'string' ? v : fallback;
}

/** A number key (e.g. a coordinate), or null. */
export function coordinate(map: JsonObject | undefined, key: string): number | null {
  const v = map?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
