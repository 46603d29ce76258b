// The units of an alarm panel, drawn from crew.ts's plan and fitted to their box without shrinking any
// text below its minimum. Modes, tried in this order until the box holds it:
//   wide   every member on two lines, the units in one column of full-width cards, then in two: as long
//          as the box has the room, no name is cut
//   wrap   every member listed, names and positions wrapping onto a second line instead of being cut
//   full   every member on two lines (name; qualification and position), cut with "…" where too long
//   dense  members side by side on one line each (position left out), then fewer of them listed
//   bare   no members listed, no qualifications: each unit's name and its counts
// then fewer units. Never is a coming member dropped silently: each unit counts what it does not list
// ("+3 coming"), and units that do not fit at all are counted with their coming members.
import type { Member, Unit } from '../alarms.js';
import { chipColors, tint } from '../color-probe.js';
import { crewUnits, listable, planCrew, type CrewUnit, type PlannedUnit, type Qualification } from '../crew.js';
import { h } from '../dom.js';
import type { Strings } from '../strings.js';
import type { VehicleStatus } from '../vehicles.js';
import { responseIcon, responseOf } from './icons.js';

/** The row background label chips sit on (--panel-2): translucent label colours are painted over it. */
const CHIP_BASE = { r: 0x1a, g: 0x20, b: 0x29, a: 1 };
/** The chip colour of a member without a (valid) label colour. */
const NEUTRAL = '#5b6675';

/** A label chip: its background is the label colour, its text black or white by luminance. */
export function chip(name: string, color: string | null, extra = ''): HTMLElement {
  const colors = chipColors(color, CHIP_BASE) ?? chipColors(NEUTRAL, CHIP_BASE)!;
  return h(
    'span',
    {
      class: `chip${extra ? ` ${extra}` : ''}`,
      'data-testid': 'chip',
      style: `--chip-bg:${colors.background};--chip-fg:${colors.text}`,
    },
    name,
  );
}

function memberRow(m: Member, t: Strings): HTMLElement {
  const kind = responseOf(m.feedback);
  const colors = chipColors(m.labelColor, CHIP_BASE) ?? chipColors(NEUTRAL, CHIP_BASE)!;
  return h(
    'li',
    {
      class: `member member--${kind}`,
      'data-testid': 'member',
      'data-feedback': m.feedback ?? '',
      style: `--label:${colors.background};--row:${tint(colors.background, CHIP_BASE, 0.2)}`,
      title:
        kind === 'positive'
          ? t.coming
          : kind === 'negative'
            ? t.notComing
            : kind === 'awaiting'
              ? t.awaiting
              : t.unknown,
    },
    responseIcon(kind),
    h('span', { class: 'member__name' }, m.name),
    m.labelName ? chip(m.labelName, m.labelColor, 'member__label') : null,
    m.position ? h('span', { class: 'member__position' }, m.position) : null,
  );
}

function qualifications(list: Qualification[]): HTMLElement[] {
  return list.map((q) =>
    h(
      'span',
      { class: 'qual', 'data-testid': 'qualification' },
      chip(q.name, q.color),
      h('span', { class: 'qual__count' }, q.count),
    ),
  );
}

/** A vehicle's FMS status on its unit's tile: "S3" and a few words, coloured by the status (crew.css). */
function fmsBadge(vehicle: VehicleStatus, t: Strings): HTMLElement {
  const word = t.fmsStatus(vehicle.status);
  return h(
    'span',
    {
      class: `fms fms--${vehicle.status}`,
      'data-testid': 'unit-fms',
      'data-status': vehicle.status,
      title: `FMS ${vehicle.status}${word ? `: ${word}` : ''}`,
    },
    h('span', { class: 'fms__digit' }, `S${vehicle.status}`),
    word ? h('span', { class: 'fms__word' }, word) : null,
  );
}

function unitCard(unit: PlannedUnit, t: Strings, vehicles?: (unitName: string) => VehicleStatus | null): HTMLElement {
  const vehicle = unit.name ? (vehicles?.(unit.name) ?? null) : null;
  const name = h('h3', { class: 'unit__name' }, unit.name || t.unit);
  const more = [
    unit.hiddenComing ? t.moreComing(unit.hiddenComing) : '',
    unit.hiddenPending ? t.moreAwaiting(unit.hiddenPending) : '',
  ].filter(Boolean);
  return h(
    'section',
    { class: 'unit', 'data-testid': 'unit', 'data-fms': vehicle?.status ?? null },
    // With a vehicle's status: beside the name where it fits, else on a line of its own below it.
    vehicle ? h('div', { class: 'unit__head' }, name, fmsBadge(vehicle, t)) : name,
    // Who is coming, by qualification, and how many declined: the line a crew reads first.
    h(
      'div',
      { class: 'unit__sum' },
      h(
        'span',
        { class: 'unit__tally tally--positive', 'data-testid': 'unit-coming', title: t.coming },
        responseIcon('positive'),
        unit.coming.length,
      ),
      unit.declined
        ? h(
            'span',
            {
              class: 'unit__tally tally--negative',
              'data-testid': 'unit-declined',
              title: t.declinedCount(unit.declined),
            },
            responseIcon('negative'),
            unit.declined,
          )
        : null,
      ...qualifications(unit.qualifications),
    ),
    unit.shown.length ? h('ul', { class: 'unit__members' }, ...unit.shown.map((m) => memberRow(m, t))) : null,
    more.length
      ? h(
          'p',
          {
            class: 'unit__more',
            'data-testid': 'unit-more',
            'data-coming': unit.hiddenComing,
            'data-pending': unit.hiddenPending,
          },
          more.join(' · '),
        )
      : null,
  );
}

/** How a crew box is drawn: the members listed (limit), the units shown (count) and the mode. */
type Mode = 'full' | 'dense' | 'bare';
interface Fit {
  limit: number;
  count: number;
  mode: Mode;
  /** Columns of units: 1 or 2 wide cards, or as many as fit (0). */
  columns?: number;
  /** Names and positions wrap onto a second line instead of being cut. */
  wrap?: boolean;
  /** With one column of units: each card's members side by side in two columns. */
  pairs?: boolean;
  /** The text's size as a share of its usual size (1), never below --min-name. */
  scale?: number;
}
type Draw = (fit: Fit) => void;
/** How to redraw a crew box on screen, what it shows (as a key) and its sizes, for fitCrew(). */
const drawers = new WeakMap<HTMLElement, Drawer>();
// The fit found for a crew in a box of a size: a patch to the counters rebuilds the panel, and the
// crew it draws again fits as before, in one layout instead of a search (bounded, oldest out first).
const fitted = new Map<string, Fit>();

/** The units box of a panel, drawn with everyone listed; fitCrew() then fits it to its space. */
export function crewView(
  units: Unit[],
  t: Strings,
  vehicles?: (unitName: string) => VehicleStatus | null,
): HTMLElement {
  const crew: CrewUnit[] = crewUnits(units);
  const statuses = crew.map((u) => (u.name ? (vehicles?.(u.name) ?? null) : null));
  const root = h('div', { class: 'units', 'data-testid': 'units' });
  const draw: Draw = ({ limit, count, mode, columns = 0, wrap = false, pairs = false, scale = 1 }) => {
    const hidden = crew.slice(count);
    const coming = hidden.reduce((n, u) => n + u.coming.length, 0);
    root.className = `units units--${mode}${wrap ? ' units--wrap' : ''}${pairs ? ' units--pairs' : ''}`;
    // As many 11 em columns as fit, but never more than there are units to fill them.
    root.style.columns = columns ? String(columns) : `11em ${Math.max(1, count + (count < crew.length ? 1 : 0))}`;
    root.style.fontSize = '';
    if (scale !== 1)
      root.style.fontSize = `max(var(--min-name), ${parseFloat(getComputedStyle(root).fontSize) * scale}px)`;
    root.replaceChildren(
      ...planCrew(crew.slice(0, count), limit).map((u) => unitCard(u, t, vehicles)),
      hidden.length
        ? h(
            'p',
            { class: 'units__more', 'data-testid': 'units-more', 'data-units': hidden.length, 'data-coming': coming },
            t.moreUnits(hidden.length, coming),
          )
        : '',
    );
  };
  draw({ limit: Infinity, count: crew.length, mode: 'full' });
  drawers.set(root, { draw, key: JSON.stringify([units, statuses]), total: listable(crew), units: crew.length });
  return root;
}

/** The largest n in [lo, hi] for which `fits(n)` holds (it holds for all smaller n), or lo − 1 if none. */
function largest(lo: number, hi: number, fits: (n: number) => boolean): number {
  let [a, b] = [lo - 1, hi];
  while (a < b) {
    const mid = Math.floor((a + b + 1) / 2);
    if (fits(mid)) a = mid;
    else b = mid - 1;
  }
  return a;
}

/**
 * Fits a crew box to its space (see the file comment); a box that is not laid out is left as it is.
 * When the crew would be cut, shortened or set smaller, the panel gives it the larger share of its body
 * (the map gets less: `panel--crew-first`) and keeps that if the crew shows more there.
 */
export function fitCrew(root: HTMLElement): void {
  const drawer = drawers.get(root);
  if (!drawer || root.clientHeight === 0) return;
  const panel = root.closest<HTMLElement>('.panel');
  panel?.classList.remove('panel--crew-first');
  const usual = fitIn(root, drawer);
  if (!panel || !better(best(drawer), rank(usual, drawer))) return;
  panel.classList.add('panel--crew-first');
  const roomier = fitIn(root, drawer);
  if (better(rank(roomier, drawer), rank(usual, drawer))) return;
  panel.classList.remove('panel--crew-first');
  drawer.draw(usual.fit);
}

type Drawer = { draw: Draw; key: string; total: number; units: number };
interface Fitted {
  fit: Fit;
  cuts: number;
}

function fitIn(root: HTMLElement, drawer: Drawer): Fitted {
  root.style.fontSize = '';
  const key = `${root.clientWidth}x${root.clientHeight}|${getComputedStyle(root).fontSize}|${drawer.key}`;
  const known = fitted.get(key);
  const fit = known && fits(root, drawer.draw, known) ? known : search(root, drawer);
  if (fit !== known) drawer.draw(fit);
  fitted.delete(key);
  fitted.set(key, fit);
  if (fitted.size > 32) fitted.delete(fitted.keys().next().value as string);
  return { fit, cuts: cuts(root) };
}

const MODES: Mode[] = ['bare', 'dense', 'full'];
/** What a fit shows, larger is better: units shown, mode, members listed, fewer texts cut, larger text. */
function rank({ fit, cuts: cut }: Fitted, drawer: Drawer): number[] {
  return [fit.count, MODES.indexOf(fit.mode), fit.mode === 'full' ? drawer.total : fit.limit, -cut, fit.scale ?? 1];
}
function best(drawer: Drawer): number[] {
  return [drawer.units, 2, drawer.total, 0, 1];
}
function better(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return false;
}

function fits(root: HTMLElement, draw: Draw, fit: Fit): boolean {
  draw(fit);
  // A unit broken across two columns fits in no column: it counts as not fitting.
  const whole = Array.prototype.every.call(
    root.querySelectorAll('.unit'),
    (u: Element) => u.getClientRects().length <= 1,
  );
  return whole && root.scrollHeight <= root.clientHeight + 1 && root.scrollWidth <= root.clientWidth + 1;
}

/** How many names, units' names and positions are cut short in the box as drawn. */
function cuts(root: HTMLElement): number {
  return Array.prototype.filter.call(
    root.querySelectorAll('.member__name, .unit__name, .member__position'),
    (el: HTMLElement) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
  ).length;
}

// Sizes tried for the crew's text, as shares of its usual size (never below --min-name): smaller whole
// names before larger ones cut.
const SCALES = [1, 0.9, 0.8];
// Column layouts tried at each size: as many 11 em columns as fit, two, one full-width card each with its
// members in two columns, then in one; then the same with names and positions wrapping onto a second line.
const LAYOUTS = [false, true].flatMap((wrap) =>
  [{ columns: 0 }, { columns: 2 }, { columns: 1, pairs: true }, { columns: 1 }].map((l) => ({ ...l, wrap })),
);

function search(root: HTMLElement, { draw, total, units }: Drawer): Fit {
  // Everyone listed with nothing cut, in the room there is: other columns, names on two lines, then a
  // smaller size; failing that, everyone listed with the fewest texts cut.
  let fewest: { fit: Fit; cuts: number } | null = null;
  for (const scale of SCALES) {
    for (const layout of LAYOUTS) {
      if (layout.columns > units) continue;
      const fit: Fit = { limit: total, count: units, mode: 'full', ...layout, scale };
      if (!fits(root, draw, fit)) continue;
      const cut = cuts(root);
      if (cut === 0) return fit;
      // Cut anyway: the largest size where everyone fits, in the layout that cuts the fewest.
      if (!fewest || (fewest.fit.scale === scale && cut < fewest.cuts)) fewest = { fit, cuts: cut };
    }
  }
  if (fewest) return fewest.fit;
  const limit = largest(1, total, (n) => fits(root, draw, { limit: n, count: units, mode: 'dense' }));
  if (limit >= 1) return { limit, count: units, mode: 'dense' };
  const count = largest(1, units, (n) => fits(root, draw, { limit: 0, count: n, mode: 'bare' }));
  return { limit: 0, count: Math.max(0, count), mode: 'bare' };
}
