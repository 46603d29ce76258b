// Remote control of a paired screen (screen:command, F6/F7): reload, identify, sleep and wake, each
// acknowledged with the screen's id. Sleep blanks the page and says so, as the DOM event
// `alarmhub:power` ({detail: {state}}) and as `screen:power` to the hub for the kiosk agent; whether it
// is blank follows power.ts, so an alarm wakes a sleeping screen.
import type { ScreenCommandAck, ScreenCommandName } from '../../common/hub-protocol.js';
import type { PairedScreen } from './credentials.js';
import { fitText } from './dom.js';
import { powerState, type PowerState } from './power.js';
import type { Strings } from './strings.js';
import { identifyOverlay, sleepOverlay } from './views/overlays.js';

export const IDENTIFY_MS = 10_000;
// Long enough for the acknowledgement to leave before the page goes.
const RELOAD_AFTER_ACK_MS = 300;
// A reload (an upgrade, or the reload command) keeps a sleeping screen asleep; a new browser wakes it.
const POWER_KEY = 'alarm-hub.display.power';

/** What the remote control needs from the screen. */
export interface RemoteOptions {
  screen: PairedScreen | null;
  monitorName: () => string;
  strings: () => Strings;
  /** Tells the hub (screen:power), for the kiosk agent. */
  emitPower: (state: PowerState) => void;
}

/** The remote control of one running screen. */
export interface Remote {
  command: (command: ScreenCommandName, ack: (answer: ScreenCommandAck) => void) => void;
  /** Called on every render: `busy` while the wall shows an alarm. */
  sync: (busy: boolean) => void;
  stop: () => void;
}

function storedPower(): PowerState {
  try {
    return sessionStorage.getItem(POWER_KEY) === 'sleep' ? 'sleep' : 'wake';
  } catch {
    return 'wake';
  }
}

/** Starts the remote control; nothing shows until a command arrives (or a stored sleep applies). */
export function createRemote(o: RemoteOptions): Remote {
  let commanded = storedPower();
  let shown: PowerState = 'wake';
  let busy = false;
  let identify: { element: HTMLElement; timer: number } | null = null;
  const blank = sleepOverlay();

  function sync(nowBusy: boolean): void {
    busy = nowBusy;
    const next = powerState(commanded, busy, identify !== null);
    if (next === shown) return;
    shown = next;
    if (next === 'sleep') document.body.append(blank);
    else blank.remove();
    window.dispatchEvent(new CustomEvent('alarmhub:power', { detail: { state: next } }));
    o.emitPower(next);
  }

  function showIdentify(): void {
    const t = o.strings();
    const name = o.screen?.name || t.unnamedScreen(o.screen?.screenId ?? 0);
    // Identify again: the card is renewed without a blink of the sleep layer in between.
    removeIdentify();
    const element = identifyOverlay(name, o.monitorName(), t);
    document.body.append(element);
    element.querySelectorAll<HTMLElement>('[data-fit]').forEach((el) => fitText(el));
    identify = { element, timer: window.setTimeout(() => hideIdentify(), IDENTIFY_MS) };
  }

  function removeIdentify(): void {
    if (!identify) return;
    window.clearTimeout(identify.timer);
    identify.element.remove();
    identify = null;
  }

  function hideIdentify(): void {
    removeIdentify();
    sync(busy);
  }

  return {
    command(command, ack) {
      if (o.screen) ack({ screenId: o.screen.screenId });
      if (command === 'reload') {
        window.setTimeout(() => location.reload(), RELOAD_AFTER_ACK_MS);
      } else if (command === 'identify') {
        showIdentify();
      } else {
        commanded = command;
        try {
          sessionStorage.setItem(POWER_KEY, command);
        } catch {
          // storage unavailable: the state lasts until the page reloads
        }
      }
      sync(busy);
    },
    sync,
    stop() {
      removeIdentify();
      blank.remove();
    },
  };
}
