// The hub's wire protocol (docs/hub.md "Protocol"): one module imported by the server and the display client.
// Types only plus constants; what clients send is still validated at run time on the server
// (schemas/hub.ts).
import type { AlarmView } from '../schemas/alarms.js';
import type { CategoryView } from '../schemas/journal.js';
import type { DataOp, DataSection, JsonObject, MonitorData } from './monitor-data.js';

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
  /**
   * The identity of the history up to `version`: drawn at random for every write, and every patch names
   * the epoch it builds on. Version 50 of a history restored from a backup and version 50 of the old one
   * differ in their epochs, so a reset is noticed whatever the numbers.
   */
  epoch: string;
  /** Set when the server's history was reset (e.g. a restored database): take this state even if older. */
  reset?: boolean;
  monitor: MonitorView;
  /** Revision of the monitor's configuration (one per change): orders it against monitor:updated. */
  monitorRevision: number;
  data: MonitorData;
}

/** One data write; applies only to a screen holding exactly `version - 1` with epoch `baseEpoch`. */
export interface PatchEvent {
  monitorId: number;
  version: number;
  /** The epoch of this version (see SnapshotEvent.epoch). */
  epoch: string;
  /** The epoch of the version this write was built on. */
  baseEpoch: string;
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
  /** The version the screen holds, with its epoch: the ack carries a snapshot unless both match. */
  version?: number;
  epoch?: string;
}

export interface UnsubscribeRequest {
  monitorId: number;
}

/** The ack of a subscription: the snapshot is present unless the client holds the current version and epoch. */
export interface SubscribeResult {
  monitorId: number;
  version: number;
  epoch: string;
  snapshot?: SnapshotEvent;
  /**
   * The server's clock (ms since 1970) when it answered: screens estimate their clock's offset from it (absent from
   * older servers).
   */
  serverTime?: number;
}

export interface AckError {
  error: string;
  message: string;
}

export type Ack<T> = { data: T } | { error: AckError };

/** What an admin can ask a screen to do (docs/hub.md "The screen fleet"). */
export type ScreenCommandName = 'reload' | 'identify' | 'sleep' | 'wake';

export interface ScreenCommandEvent {
  command: ScreenCommandName;
}

/** A screen's acknowledgement of a command. */
export interface ScreenCommandAck {
  screenId: number;
}

/** A test alarm on a monitor: shown like an alarm but marked TEST; never part of the monitor's data. */
export interface TestAlarmEvent {
  monitorId: number;
  message: string;
  /** When it ends by itself (RFC 3339, server time). */
  endsAt: string;
}

export interface ScreenOfflineEvent {
  screenId: number;
  monitorId: number;
  /** When the screen was last seen. */
  since: string;
}

export interface ScreenOnlineEvent {
  screenId: number;
  monitorId: number;
}

/** What a screen reports it shows (`screen:report`). */
export interface ScreenReportEvent {
  versionShown: number;
  pageVersion: string;
}

/** The page blanked (sleep) or returned (wake): a kiosk agent turns it into HDMI-CEC or DPMS. */
export interface ScreenPowerEvent {
  state: 'sleep' | 'wake';
}

/** A device's feedback to an alarm (A10); a later one of the same device replaces it. */
export interface FeedbackEvent {
  organizationID: number;
  alarmID: number;
  deviceID: number;
  ownerID: number;
  response: boolean | null;
  answerData: { distance?: number; duration?: number };
  updatedAt: string;
}

/** An alarm raised or changed (its end, its deliveries' and answers' counts), to its organization's room. */
export interface AlarmEvent {
  alarm: AlarmView;
}

/** A change to a journal, to its organization's room: a staff screen follows it without polling. */
export interface JournalChangedEvent {
  journalId: number;
  kind: 'locked' | 'unlocked' | 'closed' | 'lock-broken' | 'entry-created' | 'entry-deleted';
  /** The entry written or deleted (a lock break is recorded as an entry too). */
  entry?: JournalEntryView;
  /** The journal's state after the change. */
  journal: JournalStateView & { totalEntries: number };
}

/** `water:nearby`: the water sources near the position of an alarm the monitor shows. */
export interface WaterNearbyRequest {
  monitorId: number;
  latitude: number;
  longitude: number;
}

/** One water source as a screen receives it: what a crew needs, nothing else of the record. */
export interface WaterSourceView {
  id: string;
  name: string;
  /** The kind's text (e.g. "Unterflurhydrant"), '' when the entity has none. */
  kind: string;
  /** The status field's text, '' when none. */
  status: string;
  inService: boolean;
  latitude: number;
  longitude: number;
  /** From the alarm's position, rounded to whole metres. */
  distanceMeters: number;
}

export interface WaterNearbyResult {
  monitorId: number;
  latitude: number;
  longitude: number;
  entityId: string;
  radiusMeters: number;
  /** The grid cells searched: a `water:changed` naming one of them means the answer may have changed. */
  cells: string[];
  /** Nearest first, at most the configured number. */
  sources: WaterSourceView[];
}

/** How many of an organization's members can come (W3's counts; docs/people.md "Availability"). */
export interface AvailabilityCounts {
  organizationId: number;
  available: number;
  unavailable: number;
  unknown: number;
  /** When the next member's `until` passes: the counts change then without an event. */
  nextChangeAt: string | null;
}

/** An FMS status a vehicle of the organization sent over the radio (IN3; docs/inputs.md "Pager"). */
export interface VehicleStatusEvent {
  organizationId: number;
  /** Its FMS code. */
  fms: string;
  /** The unit's name, as the wall's tiles name it. */
  name: string;
  /** 1–9 (1 on the radio, 2 at the station, 3 on the way, 4 at the scene, …). */
  status: number;
  at: string;
}

/** The latest status of each vehicle of an organization (`vehicles:watch`). */
export interface VehicleStatuses {
  organizationId: number;
  vehicles: Array<Omit<VehicleStatusEvent, 'organizationId'>>;
}

/** Records of a water sources entity changed in these grid cells (null: anywhere). */
export interface WaterChangedEvent {
  entityId: string;
  cells: string[] | null;
}

export interface ServerToClientEvents {
  'monitor:snapshot': (event: SnapshotEvent) => void;
  'monitor:patch': (event: PatchEvent) => void;
  /** To the organization's room: a monitor was made (M3); the staff's pages list it. */
  'monitor:created': (event: { monitor: MonitorView }) => void;
  'monitor:updated': (event: UpdatedEvent) => void;
  'monitor:deleted': (event: DeletedEvent) => void;
  'monitor:test-alarm': (event: TestAlarmEvent) => void;
  'screen:command': (event: ScreenCommandEvent, ack: (answer: ScreenCommandAck) => void) => void;
  'screen:offline': (event: ScreenOfflineEvent) => void;
  'screen:online': (event: ScreenOnlineEvent) => void;
  /** To a screen's kiosk agents: its page went to sleep or woke up. */
  'screen:power': (event: ScreenPowerEvent & { screenId: number }) => void;
  /** A10: a device's feedback to an alarm, to the organization's room. */
  'app:feedback': (event: FeedbackEvent) => void;
  'journal:changed': (event: JournalChangedEvent) => void;
  /** To the organization's room: its members changed (docs/people.md "Members"); read P6 again. */
  'members:changed': (event: { organizationId: number }) => void;
  /** To the organization's room and the walls that show it: a member said whether he can come (W2). */
  'availability:changed': (event: AvailabilityCounts) => void;
  'alarm:created': (event: AlarmEvent) => void;
  'alarm:updated': (event: AlarmEvent) => void;
  /** To the organization's room: an entity or its records changed (T2, T4, T6, T7, T9); read it again. */
  'things:changed': (event: { organizationId: number; entityId: string }) => void;
  /** To the organization's room: a things rule fired for a record. */
  'things:rule-triggered': (event: RuleTriggeredEvent) => void;
  /** To screens that asked for water sources of the entity: look again if one of your cells changed. */
  'water:changed': (event: WaterChangedEvent) => void;
  /** To the organization's room and its walls: a vehicle's FMS status (IN3). */
  'vehicle:status': (event: VehicleStatusEvent) => void;
}

export interface ClientToServerEvents {
  'monitor:subscribe': (request: SubscribeRequest, ack: (answer: Ack<SubscribeResult>) => void) => void;
  'monitor:unsubscribe': (request: UnsubscribeRequest, ack: (answer: Ack<{ monitorId: number }>) => void) => void;
  'screen:report': (report: ScreenReportEvent) => void;
  'screen:power': (power: ScreenPowerEvent) => void;
  'water:nearby': (request: WaterNearbyRequest, ack: (answer: Ack<WaterNearbyResult>) => void) => void;
  /** A wall showing its members' availability (configurationStandby.showAvailability) asks and follows it. */
  'availability:watch': (request: { monitorId: number }, ack: (answer: Ack<AvailabilityCounts>) => void) => void;
  /** A wall asks for its organization's vehicle statuses and follows them (`vehicle:status`). */
  'vehicles:watch': (request: { monitorId: number }, ack: (answer: Ack<VehicleStatuses>) => void) => void;
}

/** Credential schemes of the handshake's `auth.scheme`. */
export type AuthScheme = 'api-token' | 'personal-access-token' | 'screen-token' | 'session';

export interface HandshakeAuth {
  /** The token; none for `session` (the cookie travels with the handshake). */
  token?: string;
  scheme: AuthScheme;
  /** `agent`: a kiosk agent beside a screen (screen tokens only): it receives `screen:power`, is no screen. */
  role?: 'screen' | 'agent';
}

/** Room names used on every hub process. */
export const rooms = {
  organization: (id: number) => `org:${id}`,
  monitor: (id: number) => `monitor:${id}`,
  screen: (id: number) => `screen:${id}`,
  agents: (id: number) => `screen-agents:${id}`,
  /** Sockets shown water sources of a things entity. */
  water: (entityId: string) => `water:${entityId}`,
  /** Walls that show the organization's availability (screens join no organization room). */
  availability: (organizationId: number) => `availability:${organizationId}`,
  /** Walls that show the organization's vehicle statuses on their unit tiles. */
  vehicles: (organizationId: number) => `vehicles:${organizationId}`,
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

// The journal as REST and the hub present it (server/areas/journal/presenter.ts builds these).

/** Who did something and when, as the interface shows it: userId, or null and the API key's ID. */
export interface StampView {
  time: string;
  userId: number | null;
  apiKeyId?: number;
}

export interface JournalEntryView {
  id: number;
  journalId: number;
  serialNumber: number;
  text: string;
  location: string;
  attachment: string;
  category: CategoryView | null;
  created: StampView & { timeCustom: string | null };
  deleted: StampView | null;
}

/** A journal without its entries (J7, J8, close, force-unlock, and the hub's events). */
export interface JournalStateView {
  id: number;
  organizationId: number;
  eventId: number | null;
  closed: boolean;
  locked: StampView | null;
}

export interface JournalView extends JournalStateView {
  entryList: { entries: JournalEntryView[]; totalEntries: number };
}
