// What the areas other than monitor publish on the hub (server/hub/events.ts): events to an
// organization's room, the screen fleet's commands and test alarms, removed screens, revoked
// credentials. Every process receives them through the adapter.
import type { Logger } from 'pino';
import type { CredentialCache } from '../identity/credential-cache.js';
import type {
  AvailabilityEvents,
  CredentialEvents,
  OrganizationEvents,
  ScreenEvents,
  VehicleEvents,
  WaterEvents,
} from './events.js';
import type { HubServer } from './io.js';
import type { RedisPair } from './redis.js';
import { commandScreens } from './screens.js';
import {
  rooms,
  type AvailabilityCounts,
  type ScreenCommandName,
  type ServerToClientEvents,
  type TestAlarmEvent,
  type VehicleStatusEvent,
  type WaterChangedEvent,
} from '../../common/hub-protocol.js';

/** How long a revocation waits for the other processes to confirm they forgot the credential. */
const FORGET_WAIT_MS = 2_000;

/** The hub's broadcasts on one Socket.IO server. */
export class HubBroadcasts
  implements OrganizationEvents, ScreenEvents, CredentialEvents, WaterEvents, AvailabilityEvents, VehicleEvents
{
  private readonly testAlarmListeners: Array<(event: TestAlarmEvent) => void> = [];

  constructor(
    private readonly io: HubServer,
    private readonly credentials: CredentialCache,
    private readonly redis: RedisPair | null,
    private readonly log: Pick<Logger, 'warn'>,
  ) {
    io.on('hub:test-alarm', (event) => this.testAlarmStarted(event));
    // A screen removed on another process: its token is refused here from now on.
    io.on('hub:forget-credential', (credential, done) => {
      credentials.forget(credential);
      this.closeSocketsOf(credential);
      if (typeof done === 'function') done(true);
    });
  }

  toOrganization<E extends keyof ServerToClientEvents>(
    organizationId: number,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    (this.io.to(rooms.organization(organizationId)).emit as (e: string, ...a: unknown[]) => boolean)(event, ...args);
  }

  availabilityChanged(counts: AvailabilityCounts): void {
    // One emit to both rooms: a socket in both (an API-key wall) hears it once.
    this.io
      .to([rooms.organization(counts.organizationId), rooms.availability(counts.organizationId)])
      .emit('availability:changed', counts);
  }

  vehicleStatus(event: VehicleStatusEvent): void {
    this.io
      .to([rooms.organization(event.organizationId), rooms.vehicles(event.organizationId)])
      .emit('vehicle:status', event);
  }

  waterChanged(event: WaterChangedEvent): void {
    this.io.to(rooms.water(event.entityId)).emit('water:changed', event);
  }

  commandScreens(screenIds: number[], command: ScreenCommandName, timeoutMs: number): Promise<number[]> {
    return commandScreens(this.io, screenIds, command, timeoutMs);
  }

  // The other processes hear of it before the screens do (one channel, in order), so a screen that
  // subscribes there either was in the room in time or is told of the running test alarm.
  testAlarm(event: TestAlarmEvent): void {
    this.testAlarmStarted(event);
    if (this.redis) this.io.serverSideEmit('hub:test-alarm', event);
    this.io.to(rooms.monitor(event.monitorId)).emit('monitor:test-alarm', event);
  }

  onTestAlarm(listener: (event: TestAlarmEvent) => void): void {
    this.testAlarmListeners.push(listener);
  }

  private testAlarmStarted(event: TestAlarmEvent): void {
    for (const listener of this.testAlarmListeners) listener(event);
  }

  disconnectScreen(screenId: number): void {
    this.io.in([rooms.screen(screenId), rooms.agents(screenId)]).disconnectSockets(true);
  }

  async credentialRevoked(credential: string): Promise<void> {
    this.credentials.forget(credential);
    this.closeSocketsOf(credential);
    await this.forgetEverywhere(credential);
  }

  // A signed-out session's (or a removed member's) sockets here close at once; a client that reconnects
  // is admitted afresh, with the rights that are left.
  private closeSocketsOf(credential: string): void {
    for (const socket of this.io.of('/').sockets.values())
      if (socket.data.actor?.credential === credential) socket.disconnect(true);
  }

  // Waits for every other process's acknowledgement, so the revoking request answers only once none of
  // them accepts the credential any more. Without Redis there are no others; with Redis away they
  // cannot be told, and forget within CREDENTIAL_CACHE_MS.
  private forgetEverywhere(credential: string): Promise<void> {
    if (!this.redis?.up()) return Promise.resolve();
    return new Promise((resolve) => {
      let settled = false;
      const settle = (problem: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (problem)
          this.log.warn(
            { err: problem },
            'revoked credential: not every process confirmed forgetting it; those refuse it within CREDENTIAL_CACHE_MS',
          );
        resolve();
      };
      // The adapter never answers when Redis fails the request: the wait has its own bound.
      const timer = setTimeout(() => settle(`no answer within ${FORGET_WAIT_MS} ms`), FORGET_WAIT_MS);
      this.io.serverSideEmit('hub:forget-credential', credential, (err: Error | null) =>
        settle(err ? err.message : null),
      );
    });
  }
}
