// The display client's store and view decisions, run in Node: no browser, no server.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { applyWrite, emptyData, type JsonObject, type MonitorData } from '../common/monitor-data.js';
import type { MonitorView, PatchEvent, SnapshotEvent, SubscribeRequest } from '../common/hub-protocol.js';
import { activeAlarms, alarmMemory, isAlarmActive, lastAlarmChange, readAlarm } from '../display-client/src/alarms.js';
import { DisplayStore, type ChangeCause } from '../display-client/src/store.js';
import { schemeFor, parseMonitorId } from '../display-client/src/credentials.js';
import { coveringTiles, fitZoom, project, tileUrl } from '../common/tiles.js';

const MONITOR_ID = 17;
const monitor: MonitorView = {
  id: MONITOR_ID,
  name: 'Wache Nord',
  organizationID: 3,
  configuration: { latitude: 52.52, longitude: 13.4 },
  configurationSplitScreen: {},
  configurationStandby: {},
  standbyDelay: 90,
};
const at = (s: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, s)).toISOString();

// Epochs of one history are e<version>; a history after a reset (restored database) uses r<version>.
function snapshot(version: number, data: MonitorData = emptyData(), monitorRevision = 1, history = 'e'): SnapshotEvent {
  return { monitorId: MONITOR_ID, version, epoch: `${history}${version}`, monitor, monitorRevision, data };
}
function patch(version: number, payload: JsonObject, op: 'set' | 'patch' = 'patch', history = 'e'): PatchEvent {
  return {
    monitorId: MONITOR_ID,
    version,
    epoch: `${history}${version}`,
    baseEpoch: `${history}${version - 1}`,
    section: 'alarming',
    op,
    payload,
    at: at(version),
  };
}
const ack = (version: number, snap?: SnapshotEvent) => ({
  monitorId: MONITOR_ID,
  version,
  epoch: snap?.epoch ?? `e${version}`,
  serverTime: Date.parse(at(version)),
  ...(snap ? { snapshot: snap } : {}),
});
function harness() {
  const changes: ChangeCause[] = [];
  const resyncs: SubscribeRequest[] = [];
  const store = new DisplayStore(MONITOR_ID, {
    onChange: (_s, cause) => changes.push(cause),
    onResync: (r) => resyncs.push(r),
  });
  return { store, changes, resyncs };
}

test('subscribe request carries no version before the first snapshot, then the held version', () => {
  const { store } = harness();
  assert.equal(store.subscribeRequest(), { monitorId: MONITOR_ID });
  store.applySnapshot(snapshot(4));
  assert.equal(store.subscribeRequest(), { monitorId: MONITOR_ID, version: 4, epoch: 'e4' });
});

test('a patch of exactly version + 1 is applied with the shared reducer', () => {
  const { store, changes } = harness();
  store.applySnapshot(snapshot(3));
  const p = patch(4, { eventId: 9, event: 'B3 Wohnhaus', positiveResponses: 5 }, 'set');
  assert.is(store.applyPatch(p), 'applied');
  assert.is(store.state.version, 4);
  const expected = applyWrite(emptyData(), { section: p.section, op: p.op, payload: p.payload, at: p.at });
  assert.equal(store.state.data, expected);
  assert.equal(changes, ['snapshot', 'patch']);
});

test('older and equal versions are ignored and change nothing', () => {
  const { store, changes, resyncs } = harness();
  store.applySnapshot(snapshot(6));
  assert.is(store.applyPatch(patch(6, { positiveResponses: 1 })), 'ignored');
  assert.is(store.applyPatch(patch(2, { positiveResponses: 1 })), 'ignored');
  assert.is(store.state.version, 6);
  assert.equal(store.state.data, emptyData());
  assert.equal(changes, ['snapshot']);
  assert.equal(resyncs, []);
});

test('a gap asks for a resync once, with the held version, and marks the screen stale', () => {
  const { store, resyncs } = harness();
  store.applySnapshot(snapshot(10));
  assert.is(store.applyPatch(patch(12, { positiveResponses: 2 })), 'buffered');
  assert.is(store.applyPatch(patch(13, { positiveResponses: 3 })), 'buffered');
  assert.equal(resyncs, [{ monitorId: MONITOR_ID, version: 10, epoch: 'e10' }]);
  assert.ok(store.stale);
  assert.is(store.state.version, 10);
});

test('the resync snapshot closes the gap and buffered newer patches are replayed in order', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(10));
  store.applyPatch(patch(13, { positiveResponses: 3 }));
  store.applyPatch(patch(12, { eventId: 1, event: 'TH Person', positiveResponses: 2 }, 'set'));
  const base = applyWrite(emptyData(), {
    section: 'alarming',
    op: 'set',
    payload: { eventId: 1, event: 'TH Person' },
    at: at(11),
  });
  store.applyAck(ack(11, snapshot(11, base)));
  assert.is(store.state.version, 13);
  assert.is(store.state.data.alarmData.positiveResponses, 3);
  assert.is(store.state.data.alarmData.event, 'TH Person');
  assert.not.ok(store.stale);
});

test('a snapshot older than the shown state of the same history is refused: the screen never goes back', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(6));
  store.applyPatch(patch(7, { event: 'old' }, 'set'));
  store.applyPatch(patch(8, { event: 'new' }, 'set'));
  assert.not.ok(store.applySnapshot(snapshot(7, { ...emptyData(), alarmData: { event: 'old' } })));
  store.applyAck(ack(7, snapshot(7, { ...emptyData(), alarmData: { event: 'old' } })));
  assert.is(store.state.version, 8);
  assert.is(store.state.data.alarmData.event, 'new');
});

test('a snapshot of the same version is accepted (it may carry a newer monitor configuration)', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(5));
  assert.ok(store.applySnapshot({ ...snapshot(5), monitor: { ...monitor, standbyDelay: 5 } }));
  assert.is(store.state.monitor?.standbyDelay, 5);
});

test('an ack without snapshot keeps asking while a hole remains; the late patch fills it', () => {
  const { store, resyncs } = harness();
  store.applySnapshot(snapshot(3));
  store.applyPatch(patch(5, { positiveResponses: 5 }));
  store.applyAck(ack(3));
  assert.is(resyncs.length, 2);
  assert.ok(store.stale);
  assert.is(store.applyPatch(patch(4, { eventId: 2, event: 'F1' }, 'set')), 'applied');
  assert.is(store.state.version, 5);
  assert.is(store.state.data.alarmData.positiveResponses, 5);
  assert.not.ok(store.stale);
});

test('patches before the first snapshot wait for it instead of triggering a resync', () => {
  const { store, resyncs } = harness();
  assert.is(store.applyPatch(patch(2, { positiveResponses: 4 })), 'buffered');
  assert.equal(resyncs, []);
  store.applyAck(ack(1, snapshot(1, { ...emptyData(), alarmData: { eventId: 3, event: 'F2' } })));
  assert.is(store.state.version, 2);
  assert.is(store.state.data.alarmData.positiveResponses, 4);
});

test('events of another monitor are ignored; monitor:updated replaces the configuration only', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(2));
  assert.is(store.applyPatch({ ...patch(3, { event: 'x' }), monitorId: 99 }), 'ignored');
  assert.not.ok(store.applySnapshot({ ...snapshot(9), monitorId: 99 }));
  store.setMonitor({ ...monitor, name: 'Renamed' }, 2);
  assert.is(store.state.monitor?.name, 'Renamed');
  assert.is(store.state.version, 2);
});

const now = Date.parse('2026-01-05T10:00:00Z');
const alarm = (id: number, extra: JsonObject = {}): JsonObject => ({
  eventId: id,
  event: `E${id}`,
  eventStartDate: new Date(now - id * 60_000).toISOString(),
  ...extra,
});

test(
  'an alarm is active while alarmData names an event or message and has not ended, or a listed ' + 'event is active',
  () => {
    assert.not.ok(isAlarmActive(emptyData(), now));
    assert.not.ok(
      isAlarmActive({ ...emptyData(), alarmData: { positiveResponses: 3 } }, now),
      'counters alone are no alarm',
    );
    assert.not.ok(
      isAlarmActive({ ...emptyData(), alarmData: { eventId: 4711, positiveResponses: 3 } }, now),
      'nor an eventId with counters',
    );
    assert.ok(isAlarmActive({ ...emptyData(), alarmData: { message: 'Rauch' } }, now), 'a message alone is one');
    assert.ok(isAlarmActive({ ...emptyData(), alarmData: alarm(1) }, now));
    assert.not.ok(
      isAlarmActive({ ...emptyData(), alarmData: alarm(1, { eventEndDate: new Date(now - 1000).toISOString() }) }, now),
    );
    assert.ok(isAlarmActive({ ...emptyData(), alarmDataList: { 2: alarm(2) } }, now));
  },
);

test('active alarms merge alarmData with the list, oldest first, without duplicates', () => {
  const data: MonitorData = {
    ...emptyData(),
    alarmData: alarm(1, { positiveResponses: 7 }),
    alarmDataList: { 1: alarm(1), 3: alarm(3) },
  };
  const alarms = activeAlarms(data, now);
  assert.equal(
    alarms.map((a) => a.eventId),
    [3, 1],
  );
  assert.is(alarms[1].positive, 7);
});

test('an alarm that ran out counts as changed at its end date', () => {
  const ended = { ...emptyData(), alarmData: alarm(1, { eventEndDate: new Date(now - 10_000).toISOString() }) };
  assert.is(lastAlarmChange(ended, 0, now), now - 10_000);
  assert.is(lastAlarmChange(ended, now - 5_000, now), now - 5_000);
});

test('readAlarm reads units, labels and feedback; a new event text is a new gong key', () => {
  const a = readAlarm({
    eventId: 4,
    event: 'B2',
    geo: { address: 'Hauptstr. 1', latitude: 52.5, longitude: 13.4 },
    units: [
      { name: 'HLF 1', feedback: [{ name: 'Kim', position: 'GF', feedback: 1, label: { name: 'AGT', color: null } }] },
    ],
  });
  assert.is(a.address, 'Hauptstr. 1');
  assert.equal(a.units[0].members[0], { name: 'Kim', position: 'GF', labelName: 'AGT', labelColor: null, feedback: 1 });
  const memory = alarmMemory();
  assert.is(memory.fresh([a]).length, 1);
  assert.is(memory.fresh([{ ...a, event: 'B3' }]).length, 1);
});

test('token prefixes pick the handshake scheme; monitor ids are positive integers', () => {
  assert.is(schemeFor('ahk_abc'), 'api-token');
  assert.is(schemeFor('ahp_abc'), 'personal-access-token');
  assert.is(schemeFor('xyz'), null);
  assert.is(parseMonitorId('12'), 12);
  assert.is(parseMonitorId('0'), null);
  assert.is(parseMonitorId('1e3'), null);
});

test('tile math: projection, URL template, covering tiles and a zoom that fits the station', () => {
  const p = project(0, 0, 1);
  assert.equal(p, { x: 256, y: 256 });
  assert.is(tileUrl('https://t/{z}/{x}/{y}.png', 2, -1, 1), 'https://t/2/3/1.png');
  const tiles = coveringTiles({ x: 512, y: 512 }, 3, 512, 256);
  assert.is(tiles.length, 2 * 2);
  const zoom = fitZoom({ lat: 52.52, lon: 13.4 }, { lat: 52.55, lon: 13.45 }, { width: 800, height: 600 }, 17, 3);
  assert.ok(zoom < 17 && zoom >= 12, `zoom ${zoom}`);
});

test('an older configuration never replaces a newer one, whichever of snapshot and update arrives first', () => {
  const { store } = harness();
  // An update before the first snapshot waits for it and wins when newer.
  store.setMonitor({ ...monitor, name: 'Early but newer' }, 50);
  assert.is(store.state.monitor, null);
  store.applySnapshot(snapshot(1, emptyData(), 40));
  assert.is(store.state.monitor!.name, 'Early but newer');
  // A snapshot read before a change but delivered after it keeps the newer configuration.
  store.setMonitor({ ...monitor, name: 'Changed' }, 60);
  store.applySnapshot(snapshot(2, emptyData(), 55));
  assert.is(store.state.monitor!.name, 'Changed');
  assert.is(store.state.version, 2);
  // An older update is ignored, a newer snapshot applies.
  store.setMonitor({ ...monitor, name: 'Stale' }, 10);
  assert.is(store.state.monitor!.name, 'Changed');
  store.applySnapshot(snapshot(3, emptyData(), 70));
  assert.is(store.state.monitor!.name, 'Wache Nord');
});

test("a subscribe answered with an older snapshot than the version asked with is a reset of the server's history", () => {
  const { store } = harness();
  const old = applyWrite(emptyData(), { section: 'alarming', op: 'set', payload: { event: 'OLD FIRE' }, at: at(1) });
  store.applySnapshot(snapshot(500, old, 90));
  assert.equal(store.subscribeRequest(), { monitorId: MONITOR_ID, version: 500, epoch: 'e500' });
  store.applyAck(ack(2, snapshot(2, emptyData(), 10, 'r')));
  assert.is(store.state.version, 2);
  assert.equal(store.state.data.alarmData, {});
  assert.not.ok(store.stale);
  assert.is(store.applyPatch(patch(3, { event: 'NEW FIRE' }, 'set', 'r')), 'applied');
  assert.is(store.state.data.alarmData.event, 'NEW FIRE');
});

test('an older snapshot pushed by the hub (not an answer to our request) is still ignored', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(7));
  store.subscribeRequest();
  store.applyAck(ack(7));
  assert.not.ok(store.applySnapshot(snapshot(5)));
  assert.is(store.state.version, 7);
});

test('a restored history at the very version the screen holds is taken when the server answers with another epoch', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(5, { ...emptyData(), alarmData: { event: 'OLD' } }));
  store.applyAck(ack(5, snapshot(5, { ...emptyData(), alarmData: { event: 'RESTORED' } }, 1, 'r')));
  assert.is(store.state.epoch, 'r5');
  assert.is(store.state.data.alarmData.event, 'RESTORED');
  assert.is(store.applyPatch(patch(6, { event: 'NEXT' }, 'set', 'r')), 'applied');
});

test('a patch built on another epoch, or another epoch at a version shown, asks for the state instead of applying', () => {
  const { store, resyncs } = harness();
  store.applySnapshot(snapshot(5));
  assert.is(store.applyPatch(patch(6, { event: 'X' }, 'set', 'r')), 'ignored');
  assert.is(store.state.version, 5);
  assert.equal(resyncs, [{ monitorId: MONITOR_ID, version: 5, epoch: 'e5' }]);
  store.applyAck(ack(5));
  assert.is(store.applyPatch(patch(5, { event: 'X' }, 'set')), 'ignored');
  assert.is(resyncs.length, 1, 'a late duplicate of the version shown asks nothing');
  assert.is(store.applyPatch(patch(4, { event: 'X' }, 'set', 'r')), 'ignored');
  assert.is(resyncs.length, 1, 'a late patch of a version never shown says nothing');
  assert.is(store.applyPatch(patch(5, { event: 'X' }, 'set', 'r')), 'ignored');
  assert.is(resyncs.length, 2, 'another epoch at the version shown: the history was reset');
});

test('a snapshot the hub marks as a reset is taken even when older', () => {
  const { store } = harness();
  store.applySnapshot(snapshot(40, { ...emptyData(), alarmData: { event: 'OLD' } }));
  assert.ok(store.applySnapshot({ ...snapshot(12, emptyData(), 1, 'r'), reset: true }));
  assert.is(store.state.version, 12);
  assert.equal(store.state.data.alarmData, {});
});

test.run();
