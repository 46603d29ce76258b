// Announces new alarms: a gong and, if configured, the spoken event and address.
import type { JsonObject } from '../../common/monitor-data.js';
import { alarmMemory, type Alarm } from './alarms.js';
import { bool } from './config.js';
import { playGong, speak } from './sound.js';

/** What announces alarms on a screen. */
export interface Announcer {
  /** Rings for the alarms not announced before. */
  announce: (alarms: Alarm[], configuration: JsonObject, quiet: boolean, voice: string) => void;
  /** Rings for a test alarm, exactly as for a real one (the caller hands each test alarm in once). */
  announceTest: (alarm: Alarm, configuration: JsonObject, voice: string) => void;
}

// The gong, and the event and address spoken in `voice` (a BCP 47 language), as configured.
function ring(alarms: Alarm[], configuration: JsonObject, voice: string): void {
  if (bool(configuration, 'gong', true)) playGong();
  if (bool(configuration, 'speech', false)) {
    const words = alarms.map((a) => [a.event, a.address].filter(Boolean).join('. ')).join('. ');
    speak(words, voice);
  }
}

/** Remembers which alarms were announced; announce() rings only for alarms not seen before. */
export function createAnnouncer(): Announcer {
  const memory = alarmMemory();
  return {
    // `quiet` is set for the very first state: a screen that reboots mid-alarm must not ring again.
    announce(alarms, configuration, quiet, voice) {
      const fresh = memory.fresh(alarms);
      if (!quiet && fresh.length > 0) ring(fresh, configuration, voice);
    },
    announceTest: (alarm, configuration, voice) => ring([alarm], configuration, voice),
  };
}
