// Draws a view decision (decide.ts) as the wall's content, with a key that changes whenever the
// drawing would: the controller rebuilds only then.
import type { AvailabilityCounts, MonitorView } from '../../../common/hub-protocol.js';
import type { MonitorData } from '../../../common/monitor-data.js';
import type { Alarm } from '../alarms.js';
import type { ViewDecision } from '../decide.js';
import { localeFor, type Language, type Strings } from '../strings.js';
import { testAlarmAsAlarm } from '../test-alarm.js';
import { alarmPanel } from './alarm.js';
import { splitView } from './split.js';
import { standbyView } from './standby.js';
import type { WaterBook } from '../water.js';
import type { VehicleWatch } from '../vehicles.js';

/** What drawing needs besides the decision. */
export interface ScreenContext {
  monitor: MonitorView;
  data: MonitorData;
  version: number;
  nowMs: number;
  t: Strings;
  language: Language;
  screen: { width: number; height: number };
  /** Water sources near the alarms, when configured (absent: none are shown). */
  waters?: Pick<WaterBook, 'at' | 'key'>;
  /** How many members can come, when the standby view shows it and the hub has answered. */
  availability?: AvailabilityCounts | null;
  /** The vehicles' FMS statuses, shown on the units' tiles (absent: none). */
  vehicles?: Pick<VehicleWatch, 'of' | 'key'>;
}

/** A drawable view: its key, the alarms a fallback would name, and the builder. */
export interface RenderedView {
  key: string;
  alarms: Alarm[];
  build: () => HTMLElement;
}

/** The drawing of a decision. */
export function renderView(view: ViewDecision, c: ScreenContext): RenderedView {
  const { monitor, t, nowMs } = c;
  const configuration = monitor.configuration;
  const base = `${c.version}|${JSON.stringify(monitor)}|${c.language}|${view.mode}|${c.waters?.key() ?? ''}`;
  const waters = c.waters?.at;
  const vehicles = c.vehicles?.of;
  // The tiles show the statuses: a new one redraws a panel, not the standby view.
  const tiles = `${base}|${c.vehicles?.key() ?? ''}`;
  if (view.mode === 'split') {
    const { width, height } = c.screen;
    return {
      key: `${tiles}|${view.alarms.map((a) => a.key).join(',')}|${width}x${height}`,
      alarms: view.alarms,
      build: () =>
        splitView(view.alarms, configuration, monitor.configurationSplitScreen, nowMs, c.screen, t, waters, vehicles),
    };
  }
  if (view.mode === 'alarm' || view.mode === 'ended' || view.mode === 'test') {
    const ended = view.mode === 'ended';
    const test = view.mode === 'test';
    // A test alarm is drawn by the same panel as a real one, only marked: it tests what a real one shows.
    const alarm =
      view.mode === 'test' ? testAlarmAsAlarm(view.test, configuration, t.testKeyword, t.testMessage) : view.alarm;
    return {
      key: `${tiles}|${alarm.key}`,
      alarms: [alarm],
      build: () =>
        alarmPanel(alarm, {
          configuration,
          nowMs,
          compact: false,
          showMap: true,
          showUnits: true,
          ended,
          endedAt: view.mode === 'ended' ? view.endedAt : undefined,
          test,
          t,
          waters: test ? undefined : waters,
          vehicles,
        }),
    };
  }
  const locale = localeFor(c.language, monitor.configurationStandby.locale);
  return {
    key: `${base}|${new Date(nowMs).toDateString()}|${JSON.stringify(c.availability ?? null)}`,
    alarms: [],
    build: () =>
      standbyView(
        monitor.configurationStandby,
        monitor.name,
        c.data.metaData ?? {},
        nowMs,
        locale,
        t,
        c.availability ?? null,
      ),
  };
}
