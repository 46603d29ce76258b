// Announces new alarms: a gong and, if configured, the spoken event and address.
import type { JsonObject } from '../../server/areas/monitor/reduce.js';
import { alarmMemory, type Alarm } from './alarms.js';
import { bool } from './config.js';
import { playGong, speak } from './sound.js';

/** Remembers which alarms were announced; announce() rings only for alarms not seen before. */
export function createAnnouncer(): { announce: (alarms: Alarm[], configuration: JsonObject, quiet: boolean, voice: string) => void } {
  const memory = alarmMemory();
  return {
    // `quiet` is set for the very first state: a screen that reboots mid-alarm must not ring again.
    // `voice`: the BCP 47 language the words are spoken in.
    announce(alarms, configuration, quiet, voice) {
      const fresh = memory.fresh(alarms);
      if (quiet || fresh.length === 0) return;
      if (bool(configuration, 'gong', true)) playGong();
      if (bool(configuration, 'speech', false)) {
        const words = fresh.map((a) => [a.event, a.address].filter(Boolean).join('. ')).join('. ');
        speak(words, voice);
      }
    },
  };
}
