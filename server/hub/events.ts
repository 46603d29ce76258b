// The single place where changes leave the areas for the hub: commands call these after their
// writes succeed; the hub implements them (on every process, through Redis). Routes never publish.
import type { MonitorEvents } from '../areas/monitor/events.js';
import type { ServerToClientEvents } from './protocol.js';

/** Events to an organization's room (`org:<id>`), e.g. a journal change or a triggered rule. */
export interface OrganizationEvents {
  /** Emits `event` to every screen and staff client of the organization, on every hub process. */
  toOrganization<E extends keyof ServerToClientEvents>(organizationId: number, event: E, ...args: Parameters<ServerToClientEvents[E]>): void;
}

/** Everything the areas publish. */
export type HubEvents = MonitorEvents & OrganizationEvents;
