// Sleep and wake (screen:command): whether the page is blank, as a pure function. A station must never
// miss an alarm: while the wall shows an alarm (running, ENDED or a test) or identifies itself, a
// sleeping screen is awake, and it goes back to sleep when the wall returns to standby.

/** What the page is: blanked (the kiosk agent may switch the display off) or showing. */
export type PowerState = 'sleep' | 'wake';

/** The state for the last command (`sleep`/`wake`; a new page is awake) and what the wall shows now. */
export function powerState(commanded: PowerState, busy: boolean, identifying: boolean): PowerState {
  return commanded === 'sleep' && !busy && !identifying ? 'sleep' : 'wake';
}
