// The hub's wire protocol (CONTRACT.md §5): one module imported by the server and the display client.
// Types only plus constants; what clients send is still validated at run time on the server
// (schemas/hub.ts).
import type { DataOp, DataSection, JsonObject, MonitorData } from '../areas/monitor/reduce.js';

/** A monitor as REST and the hub present it. */
export interface MonitorView {
  id: number;
  name: string;
  organizationID: number;
  configuration: JsonObject;
  configurationSplitScreen: JsonObject;
  configurationStandby: JsonObject;
  standbyDelay: number;
}

/** The whole state of a monitor at one data version. */
export interface SnapshotEvent {
  monitorId: number;
  version: number;
  monitor: MonitorView;
  /** Revision of the monitor's configuration (ms of its last change): orders it against monitor:updated. */
  monitorRevision: number;
  data: MonitorData;
}

/** One data write; applies only to a screen whose version is exactly `version - 1`. */
export interface PatchEvent {
  monitorId: number;
  version: number;
  section: DataSection;
  op: DataOp;
  payload: JsonObject;
  /** Server time of the write (RFC 3339); the shared reducer needs it to age events and key the log. */
  at: string;
}

export interface UpdatedEvent {
  monitor: MonitorView;
  /** See SnapshotEvent.monitorRevision: a screen keeps the configuration of the highest revision. */
  revision: number;
}

export interface DeletedEvent {
  monitorId: number;
}

export interface SubscribeRequest {
  monitorId: number;
  version?: number;
}

export interface UnsubscribeRequest {
  monitorId: number;
}

/** The ack of a subscription: the snapshot is present when the client's version was missing or behind. */
export interface SubscribeResult {
  monitorId: number;
  version: number;
  snapshot?: SnapshotEvent;
}

export interface AckError {
  error: string;
  message: string;
}

export type Ack<T> = { data: T } | { error: AckError };

export interface ServerToClientEvents {
  'monitor:snapshot': (event: SnapshotEvent) => void;
  'monitor:patch': (event: PatchEvent) => void;
  'monitor:updated': (event: UpdatedEvent) => void;
  'monitor:deleted': (event: DeletedEvent) => void;
  /** To the organization's room: a things rule fired for a record. */
  'things:rule-triggered': (event: RuleTriggeredEvent) => void;
}

export interface ClientToServerEvents {
  'monitor:subscribe': (request: SubscribeRequest, ack: (answer: Ack<SubscribeResult>) => void) => void;
  'monitor:unsubscribe': (request: UnsubscribeRequest, ack: (answer: Ack<{ monitorId: number }>) => void) => void;
}

/** Credential schemes of the handshake's `auth.scheme`. */
export type AuthScheme = 'api-token' | 'personal-access-token';

export interface HandshakeAuth {
  token: string;
  scheme: AuthScheme;
}

/** Room names used on every hub process. */
export const rooms = {
  organization: (id: number) => `org:${id}`,
  monitor: (id: number) => `monitor:${id}`,
};

/** The alarm a things rule with the action `alarm` produced from a record. */
export interface ThingsAlarm {
  /** actionAlarmTemplate.alarmMessage with the record's values in its {{fieldID}} placeholders. */
  message: string;
  eventName: string;
  alarmTemplateID: number | null;
  /** From positionFieldID: a coordinates field gives latitude/longitude, an address field the address. */
  position: { latitude: number; longitude: number } | { address: string } | null;
  /** From documentKeysFieldID: its value split at commas. */
  documentKeys: string[];
}

/** `things:rule-triggered`: a rule's conditions held for a record on one of its triggers. */
export interface RuleTriggeredEvent {
  executionID: string;
  ruleID: string;
  ruleName: string;
  entityID: string;
  recordID: string;
  trigger: 'record_created' | 'record_updated' | 'record_deleted';
  /** RFC 3339 time of the execution. */
  at: string;
  alarm: ThingsAlarm;
}
