// The water sources near the alarms on the wall (docs/display.md "Water sources"): asked of the hub
// (`water:nearby`) for each alarm position the screen shows, when the monitor's configuration names a
// water sources entity; asked again when `water:changed` names a cell an answer came from, and after
// every reconnect (the hub forgets who listens when a connection goes). A failed question is asked
// again after a while; an answer already shown stays until a newer one comes.
import type {
  Ack,
  WaterChangedEvent,
  WaterNearbyRequest,
  WaterNearbyResult,
  WaterSourceView,
} from '../../common/hub-protocol.js';

const RETRY_MS = 15_000;

interface Entry {
  result: WaterNearbyResult | null;
  asking: boolean;
  /** Asked again once the answer in flight is in (a change came meanwhile). */
  again: boolean;
  retry: number | undefined;
}

/** Answers by position, kept for the alarms on the wall. */
export interface WaterBook {
  /** The sources near a position, nearest first; null until the first answer. */
  at: (latitude: number, longitude: number) => WaterSourceView[] | null;
  /** Changes whenever an answer shown would change. */
  key: () => string;
  /**
   * The positions the wall shows now (none when water sources are not configured): asks for new ones,
   * forgets the others. A new `setting` (the configuration's waterSources) asks every position again.
   */
  show: (positions: Array<{ latitude: number; longitude: number }>, setting: string) => void;
  changed: (event: WaterChangedEvent) => void;
  /** After a reconnect: every position is asked again. */
  reconnected: () => void;
  stop: () => void;
}

/** `ask` sends one `water:nearby` (null: no answer in time); `onChange` redraws. */
export function createWaterBook(
  monitorId: number,
  ask: (request: WaterNearbyRequest) => Promise<Ack<WaterNearbyResult> | null>,
  onChange: () => void,
): WaterBook {
  const entries = new Map<string, Entry>();
  let version = 0;
  let shownSetting = '';
  const keyOf = (latitude: number, longitude: number) => `${latitude},${longitude}`;

  function request(key: string, latitude: number, longitude: number): void {
    const entry = entries.get(key);
    if (!entry) return;
    if (entry.asking) {
      entry.again = true;
      return;
    }
    window.clearTimeout(entry.retry);
    entry.asking = true;
    entry.again = false;
    void ask({ monitorId, latitude, longitude }).then((answer) => {
      entry.asking = false;
      if (entries.get(key) !== entry) return; // forgotten meanwhile
      if (answer && 'data' in answer) {
        if (JSON.stringify(answer.data.sources) !== JSON.stringify(entry.result?.sources)) version++;
        entry.result = answer.data;
        onChange();
      } else {
        // Not configured (yet), no alarm there (yet), or no answer: a configuration or data change
        // brings a new show(); the retry covers the rest.
        entry.retry = window.setTimeout(() => request(key, latitude, longitude), RETRY_MS);
      }
      if (entry.again) request(key, latitude, longitude);
    });
  }

  return {
    at: (latitude, longitude) => entries.get(keyOf(latitude, longitude))?.result?.sources ?? null,
    key: () => String(version),
    show(positions, setting) {
      if (setting !== shownSetting) {
        shownSetting = setting;
        for (const entry of entries.values()) window.clearTimeout(entry.retry);
        entries.clear();
        version++;
      }
      const wanted = new Map(positions.map((p) => [keyOf(p.latitude, p.longitude), p]));
      for (const [key, entry] of entries) {
        if (wanted.has(key)) continue;
        window.clearTimeout(entry.retry);
        entries.delete(key);
      }
      for (const [key, p] of wanted) {
        if (entries.has(key)) continue;
        entries.set(key, { result: null, asking: false, again: false, retry: undefined });
        request(key, p.latitude, p.longitude);
      }
    },
    changed(event) {
      for (const [key, entry] of entries) {
        const result = entry.result;
        if (result && result.entityId !== event.entityId) continue;
        if (result && event.cells && !event.cells.some((c) => result.cells.includes(c))) continue;
        const [latitude, longitude] = key.split(',').map(Number);
        request(key, latitude, longitude);
      }
    },
    reconnected() {
      for (const key of entries.keys()) {
        const [latitude, longitude] = key.split(',').map(Number);
        request(key, latitude, longitude);
      }
    },
    stop() {
      for (const entry of entries.values()) window.clearTimeout(entry.retry);
      entries.clear();
    },
  };
}
