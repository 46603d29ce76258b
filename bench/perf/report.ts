// Renders BENCHMARKS.md from a run's figures (and the "before" run's, when saved).
import type { NeighbourRow } from '../setup.js';

export interface Latency {
  p50: number;
  p99: number;
  max: number;
  missed: number;
  patches: number;
  /** Median time until the REST call (or the bare server's POST) answered. */
  answerP50?: number;
  /** Writes the server refused or failed (absent in runs before it was counted). */
  refused?: number;
  /** Snapshots screens got after subscribing: their process resynced them instead of sending patches. */
  snapshots?: number;
}

export interface RestFigures {
  rps: number;
  p99: number;
  non2xx: number;
  /** CPU time per request in ms of the server and of the embedded database's process (absent in older runs). */
  cpu?: { server: number; database: number };
}

export interface StormFigures {
  /** Until the last screen was subscribed with its monitor's data. */
  seconds: number;
  /** Until the last screen was connected (absent in runs before it was measured). */
  connectedSeconds?: number;
  subscribed: number;
  failed: number;
  /** RSS growth of the processes per screen, 45 s after the storm, without a forced GC. */
  rssPerScreen: number;
  /** The worst event-loop delay of a process during the storm. */
  loopMaxMs: number;
  /**
   * The processes' CPU time (user and system) from the storm's start until all were subscribed, per screen (absent in
   * runs before it was measured).
   */
  cpuPerScreenMs?: number;
}

export interface Results {
  date: string;
  machine: string;
  seconds: number;
  /** `fair`: the baseline that stores each version before broadcasting (absent in runs before it existed). */
  fanout: Array<{ screens: number; monitors: number; bare: Latency; fair?: Latency; ours: Latency }>;
  memory: {
    ours: Array<{ screens: number; rss: number; heapUsed: number }>;
    bare: Array<{ screens: number; rss: number; heapUsed: number }>;
  };
  rest: Array<{ name: string; ours: RestFigures; bare: RestFigures }>;
  /** One process, screens over 100 monitors, rising patch rates (absent in runs before it existed). */
  saturation?: Array<Latency & { screens: number; rate: number }>;
  /** One process at 20 patches/s over 100 monitors, screens stepping up (absent in runs before it existed). */
  capacity?: Array<Latency & { screens: number; rate: number; held: boolean }>;
  /** Time to ready and idle RSS, run from TypeScript and from compiled JavaScript. */
  startup?: Array<{ name: string; readyMs: number; rss: number }>;
  /** Screens connecting all at once (absent in runs before it existed). */
  storm?: Array<{ screens: number; processes: number; bare: StormFigures; ours: StormFigures }>;
  /**
   * An alarm raised (AL1) for an organization whose members each have a device, a mobile and a phone (absent in runs
   * before it existed).
   */
  alarms?: { members: number; runs: AlarmRun[] };
  /** An organization's calls alone and beside a neighbour 100 times its size (bench/neighbour-*.ts). */
  neighbour?: {
    things: { records: number; rows: NeighbourRow[] };
    lists: { small: number; rows: NeighbourRow[] };
  };
}

/**
 * One alarm: ms from just before AL1 to its answer, to the first screen's receipt, and until every push, SMS and call
 * reached its fake gateway.
 */
export interface AlarmRun {
  answerMs: number;
  firstScreenMs: number;
  pushMs: number;
  smsMs: number;
  callMs: number;
  allMs: number;
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a) ? `${(a / b).toFixed(2)}×` : '–');
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Bytes per screen between the smallest and the largest number of screens held. */
export function perScreen(points: Array<{ screens: number; rss: number; heapUsed: number }>): {
  rss: number;
  heap: number;
} {
  if (points.length < 2) return { rss: NaN, heap: NaN };
  const [first, last] = [points[0], points.at(-1)!];
  const n = last.screens - first.screens;
  return n > 0
    ? { rss: (last.rss - first.rss) / n, heap: (last.heapUsed - first.heapUsed) / n }
    : { rss: NaN, heap: NaN };
}

function section(title: string, r: Results): string {
  const lines = [`## ${title}`, '', `${r.date} · ${r.machine} · ${r.seconds} s per figure`, ''];
  lines.push('### Fan-out: REST patch → every screen (2 processes, one Redis, 20 patches/s)', '');
  lines.push(
    'Bare stores nothing (the floor); storing bare stores each version durably, then broadcasts ' +
      "(bench/perf/fair-hub.ts). Ratios are alarm-hub's to each.",
    '',
  );
  lines.push(
    '| screens | monitors | bare p50 / p99 / max ms | storing bare p50 / p99 / max ms | alarm-hub ' +
      'p50 / p99 / max ms | p50 ratio (storing / bare) | p99 ratio (storing / bare) | missed (alarm-hub ' +
      '/ storing / bare) | REST answer p50 ms (bare / storing / alarm-hub) |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  const three = (x: Latency | undefined) => (x ? `${ms(x.p50)} / ${ms(x.p99)} / ${ms(x.max)}` : '–');
  for (const f of r.fanout) {
    const { bare, fair, ours } = f;
    lines.push(
      `| ${f.screens} | ${f.monitors} | ${three(bare)} | ${three(fair)} | ${three(ours)} | ${ratio(ours.p50, fair?.p50 ?? NaN)} ` +
        `/ ${ratio(ours.p50, bare.p50)} | ${ratio(ours.p99, fair?.p99 ?? NaN)} / ${ratio(ours.p99, bare.p99)} ` +
        `| ${ours.missed} / ${fair?.missed ?? '–'} / ${bare.missed} | ${ms(bare.answerP50 ?? NaN)} / ` +
        `${ms(fair?.answerP50 ?? NaN)} / ${ms(ours.answerP50 ?? NaN)} |`,
    );
  }
  const [ours, bare] = [perScreen(r.memory.ours), perScreen(r.memory.bare)];
  lines.push('', '### Memory of one process per idle subscribed screen (after a forced GC)', '');
  lines.push('| | screens held | RSS per screen | heap per screen |', '|---|---|---|---|');
  lines.push(
    `| bare Socket.IO | ${r.memory.bare.map((p) => p.screens).join(' / ')} | ${kib(bare.rss)} | ${kib(bare.heap)} |`,
  );
  lines.push(
    `| alarm-hub | ${r.memory.ours.map((p) => p.screens).join(' / ')} | ${kib(ours.rss)} | ${kib(ours.heap)} |`,
  );
  lines.push(`| ratio | | ${ratio(ours.rss, bare.rss)} | ${ratio(ours.heap, bare.heap)} |`);
  lines.push('', 'RSS and heap at each size:', '');
  for (const [name, points] of [
    ['bare', r.memory.bare],
    ['alarm-hub', r.memory.ours],
  ] as const) {
    lines.push(
      `- ${name}: ${points.map((p) => `${p.screens}: ${(p.rss / 2 ** 20).toFixed(1)} / ${(p.heapUsed / 2 ** 20).toFixed(1)} MiB`).join('; ')}`,
    );
  }
  lines.push('', '### REST (autocannon, 10 connections)', '');
  lines.push(
    '| operation | bare Koa req/s (p99 ms) | alarm-hub req/s (p99 ms) | ratio | CPU ms per request, ' +
      'server + database (bare / alarm-hub) |',
    '|---|---|---|---|---|',
  );
  const cpu = (x: RestFigures) => (x.cpu ? `${x.cpu.server.toFixed(2)} + ${x.cpu.database.toFixed(2)}` : '–');
  for (const x of r.rest)
    lines.push(
      `| ${x.name} | ${x.bare.rps.toFixed(0)} (${x.bare.p99}) | ${x.ours.rps.toFixed(0)} (${x.ours.p99}) ` +
        `| ${ratio(x.ours.rps, x.bare.rps)} | ${cpu(x.bare)} / ${cpu(x.ours)} |`,
    );
  if (r.saturation?.length) {
    lines.push('', '### Saturation: one process, screens spread over 100 monitors, rising patch rates', '');
    lines.push('| screens | patches/s | p50 / p99 / max ms | missed |', '|---|---|---|---|');
    for (const x of r.saturation)
      lines.push(`| ${x.screens} | ${x.rate} | ${ms(x.p50)} / ${ms(x.p99)} / ${ms(x.max)} | ${x.missed} |`);
  }
  if (r.capacity?.length) {
    lines.push(
      '',
      '### Capacity: one process, screens over 100 monitors, 20 patches/s, stepping up until p99 ≥ ' +
        '250 ms or a patch is missed',
      '',
    );
    lines.push('| screens | p50 / p99 / max ms | missed | held |', '|---|---|---|---|');
    for (const x of r.capacity)
      lines.push(
        `| ${x.screens} | ${ms(x.p50)} / ${ms(x.p99)} / ${ms(x.max)} | ${x.missed} | ${x.held ? 'yes' : 'no'} |`,
      );
  }
  if (r.startup?.length) {
    lines.push('', '### Start and idle memory (median of three starts, until /readyz answers; RSS after 3 s idle)', '');
    lines.push('| run as | ready after | idle RSS |', '|---|---|---|');
    for (const x of r.startup)
      lines.push(`| ${x.name} | ${x.readyMs.toFixed(0)} ms | ${(x.rss / 2 ** 20).toFixed(1)} MiB |`);
  }
  if (r.storm?.length) {
    lines.push('', '### Reconnect storm: screens connecting at once over 100 monitors (fresh processes each time)', '');
    lines.push(
      '| screens | processes | all subscribed after, s (bare / alarm-hub) | ratio | RSS growth per ' +
        'screen 45 s later, no GC (bare / alarm-hub) | ratio | failed (bare / alarm-hub) | event-loop ' +
        'delay max ms (bare / alarm-hub) | server CPU per screen ms (bare / alarm-hub) |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const x of r.storm) {
      lines.push(
        `| ${x.screens} | ${x.processes} | ${x.bare.seconds.toFixed(1)} / ${x.ours.seconds.toFixed(1)} ` +
          `| ${ratio(x.ours.seconds, x.bare.seconds)} | ${kib(x.bare.rssPerScreen)} / ${kib(x.ours.rssPerScreen)} ` +
          `| ${ratio(x.ours.rssPerScreen, x.bare.rssPerScreen)} | ${x.bare.failed} / ${x.ours.failed} ` +
          `| ${x.bare.loopMaxMs.toFixed(0)} / ${x.ours.loopMaxMs.toFixed(0)} | ${x.bare.cpuPerScreenMs?.toFixed(2) ?? '—'} ` +
          `/ ${x.ours.cpuPerScreenMs?.toFixed(2) ?? '—'} |`,
      );
    }
  }
  if (r.alarms?.runs.length) {
    lines.push(
      '',
      `### Alarms: AL1 for an organization of ${r.alarms.members} members, each with a device, a mobile ` +
        `and a phone (one process; fake APNs, SMS and voice gateways on this machine)`,
      '',
    );
    lines.push(
      '| alarm | AL1 answered ms | first screen shows it ms | every push sent ms | every SMS sent ' +
        'ms | every call sent ms | all sent ms |',
      '|---|---|---|---|---|---|---|',
    );
    for (const [i, x] of r.alarms.runs.entries())
      lines.push(
        `| ${i + 1} | ${ms(x.answerMs)} | ${ms(x.firstScreenMs)} | ${ms(x.pushMs)} | ${ms(x.smsMs)} ` +
          `| ${ms(x.callMs)} | ${ms(x.allMs)} |`,
      );
  }
  if (r.neighbour) {
    const { things, lists } = r.neighbour;
    lines.push('', `### One organization beside a large neighbour (median ms of sequential calls, alone → beside)`, '');
    lines.push(
      `Things: organization A's entity of 10 records beside organization B's ${things.records} records ` +
        `(bench/neighbour-things.ts). Lists: A's ${lists.small} of each beside B's ${lists.small * 100} ` +
        `of each (bench/neighbour-lists.ts).`,
      '',
    );
    lines.push('| call | alone ms | beside ms | ratio |', '|---|---|---|---|');
    for (const x of [...things.rows, ...lists.rows])
      lines.push(`| ${x.label} | ${ms(x.alone)} | ${ms(x.beside)} | ${ratio(x.beside, x.alone)} |`);
  }
  return lines.join('\n');
}

// The figures the goals are stated on, before the performance work, before this round of it (when a
// run of the main before it is saved as "previous") and now, each as its ratio to the baseline of the
// same run.
function goals(before: Results | null, previous: Results | null, current: Results): string {
  type Row = [label: string, value: (r: Results | null) => string, goal: string];
  const rows: Row[] = [];
  const fan =
    (screens: number, monitors: number, pick: (f: Results['fanout'][number]) => string) => (r: Results | null) => {
      const f = r?.fanout.find((x) => x.screens === screens && x.monitors === monitors);
      return f ? pick(f) : '–';
    };
  for (const f of current.fanout) {
    const where = `${f.screens} screens on ${f.monitors === 1 ? 'one monitor' : `${f.monitors} monitors`}`;
    const floor = (x: Results['fanout'][number]) =>
      `${ratio(x.ours.p50, x.bare.p50)} / ${ratio(x.ours.p99, x.bare.p99)}`;
    const fair = (x: Results['fanout'][number]) =>
      x.fair
        ? `${ratio(x.ours.p50, x.fair.p50)} / ${ratio(x.ours.p99, x.fair.p99)} (${ms(x.ours.p50)} / ${ms(x.ours.p99)} ` +
          `against ${ms(x.fair.p50)} / ${ms(x.fair.p99)} ms)`
        : '–';
    rows.push([
      `fan-out p50 / p99 against the storing bare server, ${where}`,
      fan(f.screens, f.monitors, fair),
      '≤ 1.15× / ≤ 1.15×',
    ]);
    rows.push([
      `fan-out p50 / p99 against the bare server that stores nothing (the floor), ${where}`,
      fan(f.screens, f.monitors, floor),
      'none (the floor)',
    ]);
    rows.push([
      `missed patches (refused writes), ${where}`,
      fan(f.screens, f.monitors, (x) => `${x.ours.missed}${x.ours.refused ? ` (${x.ours.refused} refused)` : ''}`),
      '0',
    ]);
  }
  rows.push([
    'capacity: screens one process holds at 20 patches/s over 100 monitors, p99 < 250 ms, none missed',
    (r) => {
      if (!r?.capacity?.length) return '–';
      const held = r.capacity.filter((x) => x.held).at(-1);
      const failed = r.capacity.find((x) => !x.held);
      return `${held ? held.screens : 'none of the steps'}${failed ? ` (${failed.screens} failed: p99 ${ms(failed.p99)} ms, ${failed.missed} missed)` : ' (every step held; more not tried)'}`;
    },
    'reported with the machine',
  ]);
  rows.push([
    'RSS per idle subscribed screen (alarm-hub / bare)',
    (r) => {
      if (!r?.memory.ours.length) return '–';
      const [ours, bare] = [perScreen(r.memory.ours), perScreen(r.memory.bare)];
      return `${ratio(ours.rss, bare.rss)} (${kib(ours.rss)} / ${kib(bare.rss)})`;
    },
    '≤ 1.3×',
  ]);
  const rest = (name: string) => (r: Results | null) => {
    const x = r?.rest.find((y) => y.name === name);
    return x ? `${ratio(x.ours.rps, x.bare.rps)} (${x.ours.rps.toFixed(0)} / ${x.bare.rps.toFixed(0)})` : '–';
  };
  rows.push(['M4 GET monitor, req/s (alarm-hub / bare Koa)', rest('M4 GET monitor'), '≥ 0.9×']);
  rows.push(['M8 PATCH alarming data, req/s', rest('M8 PATCH alarming data'), '≥ 0.9×']);
  type Storm = NonNullable<Results['storm']>[number];
  const storm = (screens: number, processes: number, pick: (x: Storm) => string) => (r: Results | null) => {
    const x = r?.storm?.find((y) => y.screens === screens && y.processes === processes);
    return x ? pick(x) : '–';
  };
  for (const x of current.storm ?? []) {
    const where = `${x.screens} screens at once, ${x.processes === 1 ? 'one process' : `${x.processes} processes`}`;
    const time = (y: Storm) =>
      `${ratio(y.ours.seconds, y.bare.seconds)} (${y.ours.seconds.toFixed(1)} / ${y.bare.seconds.toFixed(1)} ` +
      `s${y.ours.failed ? `, ${y.ours.failed} failed` : ''})`;
    const rss = (y: Storm) =>
      `${ratio(y.ours.rssPerScreen, y.bare.rssPerScreen)} (${kib(y.ours.rssPerScreen)} / ${kib(y.bare.rssPerScreen)})`;
    rows.push([
      `reconnect storm: all subscribed, ${where}`,
      storm(x.screens, x.processes, time),
      '≤ 1.5×, none failed',
    ]);
    rows.push([
      `reconnect storm: RSS per screen 45 s later (no GC), ${where}`,
      storm(x.screens, x.processes, rss),
      '≤ 1.5×',
    ]);
  }
  const neighbour = (label: string) => (r: Results | null) => {
    const n = r?.neighbour;
    const x = [...(n?.things.rows ?? []), ...(n?.lists.rows ?? [])].find((y) => y.label === label);
    return x ? `${ratio(x.beside, x.alone)} (${ms(x.alone)} → ${ms(x.beside)} ms)` : '–';
  };
  if (current.neighbour) {
    const { things, lists } = current.neighbour;
    for (const x of things.rows)
      rows.push([
        `${x.label}, 10 records beside ${things.records} of another organization`,
        neighbour(x.label),
        '≤ 1.5×',
      ]);
    for (const x of lists.rows)
      rows.push([
        `${x.label}, ${lists.small} beside ${lists.small * 100} of another organization`,
        neighbour(x.label),
        '≤ 1.5×',
      ]);
  }
  const columns = previous ? ['before the performance work', 'main before this round', 'now'] : ['before', 'now'];
  const runs = previous ? [before, previous, current] : [before, current];
  return [
    '## Goals: each figure as its ratio to the baseline of the same run',
    '',
    `| figure | ${columns.join(' | ')} | goal |`,
    `|---|${columns.map(() => '---|').join('')}---|`,
    ...rows.map(([label, value, goal]) => `| ${label} | ${runs.map(value).join(' | ')} | ${goal} |`),
  ].join('\n');
}

/** The whole document. */
export function renderReport(
  before: Results | null,
  current: Results | null,
  notes = '',
  previous: Results | null = null,
): string {
  const parts = [
    '# Benchmarks',
    '',
    'Generated by `npm run bench` (bench/perf/run.ts): alarm-hub beside bare baselines in one run, ' +
      'on one machine, clients and servers together. The baselines: a bare Socket.IO server with the ' +
      'same Redis adapter that only broadcasts (fan-out, memory, storm), the same with a Koa route ' +
      'that stores each version with mongoose in the same database before broadcasting (the storing ' +
      'bare server of the fan-out), and bare Koa routes doing the same database work without our middleware ' +
      "(REST). Latency runs from just before the REST call to each screen's receipt, over every screen " +
      'and patch; "missed" counts deliveries that never arrived.',
    '',
  ];
  if (current) parts.push(goals(before, previous, current), '');
  if (notes) parts.push(notes.trim(), '');
  if (current) parts.push(section('Now', current), '');
  if (previous)
    parts.push(section(`Main before this round (${previous.date.split('; ')[0].slice(0, 10)})`, previous), '');
  if (before) parts.push(section('Before the performance work', before), '');
  return parts.join('\n');
}
