// The screen fleet on the hub (docs/hub.md "The screen fleet"): paired screens report what they show and answer
// commands; their kiosk agents learn when the page sleeps or wakes; every process keeps the health of
// the screens connected to it and sweeps for those that went silent anywhere.
import type { Logger } from 'pino';
import type { Server, Socket } from 'socket.io';
import type { Validator } from '../http/validation.js';
import type { ScreenActor } from '../identity/actor.js';
import type { ScreenHealthPort } from './ports.js';
import {
  rooms,
  type ScreenCommandName,
  type ScreenPowerEvent,
  type ScreenReportEvent,
} from '../../common/hub-protocol.js';

// Reports are written at most this often per screen; the latest one wins.
const REPORT_EVERY_MS = 2_000;

type AnyServer = Server<any, any, any, any>;
type AnySocket = Socket<any, any, any, any>;

/** Handles one screen's socket (or its kiosk agent's). */
export function attachScreen(
  io: AnyServer,
  socket: AnySocket,
  screen: ScreenActor,
  agent: boolean,
  deps: { health: ScreenHealthPort; validator: Validator; log: Logger },
): void {
  const { health, validator, log } = deps;
  const fail = (what: string) => (err: unknown) => log.warn({ err, screenId: screen.screenId }, what);
  if (agent) {
    void socket.join(rooms.agents(screen.screenId));
    return;
  }
  void socket.join(rooms.screen(screen.screenId));
  const userAgent = String(socket.handshake.headers['user-agent'] ?? '').slice(0, 300) || null;
  void health.connected(screen.screenId, userAgent).catch(fail('screen health: connect not recorded'));

  let latest: ScreenReportEvent | null = null;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    if (latest) void health.report(screen.screenId, latest).catch(fail('screen report not recorded'));
    latest = null;
  };
  socket.on('screen:report', (report: unknown) => {
    try {
      latest = validator.check<ScreenReportEvent>(
        'HubScreenReport',
        report,
        'body',
        'versionShown and pageVersion are required',
      );
    } catch {
      return;
    }
    timer ??= setTimeout(flush, REPORT_EVERY_MS);
  });
  socket.on('screen:power', (power: unknown) => {
    try {
      const { state } = validator.check<ScreenPowerEvent>(
        'HubScreenPower',
        power,
        'body',
        'state must be sleep or wake',
      );
      io.to(rooms.agents(screen.screenId)).emit('screen:power', { screenId: screen.screenId, state });
    } catch {
      // A malformed report from a page is dropped; nothing else depends on it.
    }
  });
  socket.on('disconnect', () => {
    if (timer) clearTimeout(timer);
    flush();
    void health.seen([screen.screenId]).catch(fail('screen health: disconnect not recorded'));
  });
}

/**
 * Sends a command to screens on every process; the screens that acknowledged within `timeoutMs`. Each
 * screen's room gets its own broadcast, so an answer counts for the screen whose room it came from
 * (only that screen's sockets join it), whatever the answer says: no screen acknowledges for another.
 */
export async function commandScreens(
  io: AnyServer,
  screenIds: number[],
  command: ScreenCommandName,
  timeoutMs: number,
): Promise<number[]> {
  const wanted = [...new Set(screenIds)];
  const answered = await Promise.all(
    wanted.map(
      (screenId) =>
        new Promise<boolean>((resolve) => {
          // On a timeout the answers that came are still there.
          io.to(rooms.screen(screenId))
            .timeout(timeoutMs)
            .emit('screen:command', { command }, (_err: Error | null, responses: unknown[]) =>
              resolve((responses ?? []).length > 0),
            );
        }),
    ),
  );
  return wanted.filter((_, i) => answered[i]);
}

/** The screens whose sockets are on this process. */
export function screensHere(io: AnyServer): Set<number> {
  const ids = new Set<number>();
  for (const socket of io.of('/').sockets.values()) {
    const caller = socket.data.actor as { kind: string; screenId?: number } | undefined;
    if (caller?.kind === 'screen' && !socket.data.agent) ids.add(caller.screenId!);
  }
  return ids;
}
