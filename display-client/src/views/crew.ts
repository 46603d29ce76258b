// The units of an alarm panel, drawn from crew.ts's plan and fitted to their box without shrinking any
// text below its minimum. Modes, tried in this order until the box holds it:
//   full   every member on two lines (name; qualification and position)
//   dense  members side by side on one line each (position left out), then fewer of them listed
//   bare   no members listed, no qualifications: each unit's name and its counts
// then fewer units. Never is a coming member dropped silently: each unit counts what it does not list
// ("+3 coming"), and units that do not fit at all are counted with their coming members.
import type { Member, Unit } from '../alarms.js';
import { chipColors, tint } from '../color-probe.js';
import { crewUnits, listable, planCrew, type CrewUnit, type PlannedUnit, type Qualification } from '../crew.js';
import { h } from '../dom.js';
import type { Strings } from '../strings.js';
import { responseIcon, responseOf } from './icons.js';

/** The row background label chips sit on (--panel-2): translucent label colours are painted over it. */
const CHIP_BASE = { r: 0x1a, g: 0x20, b: 0x29, a: 1 };
/** The chip colour of a member without a (valid) label colour. */
const NEUTRAL = '#5b6675';

/** A label chip: its background is the label colour, its text black or white by luminance. */
export function chip(name: string, color: string | null, extra = ''): HTMLElement {
  const colors = chipColors(color, CHIP_BASE) ?? chipColors(NEUTRAL, CHIP_BASE)!;
  return h('span', { class: `chip${extra ? ` ${extra}` : ''}`, 'data-testid': 'chip', style: `--chip-bg:${colors.background};--chip-fg:${colors.text}` }, name);
}

function memberRow(m: Member, t: Strings): HTMLElement {
  const kind = responseOf(m.feedback);
  const colors = chipColors(m.labelColor, CHIP_BASE) ?? chipColors(NEUTRAL, CHIP_BASE)!;
  return h('li', {
    class: `member member--${kind}`,
    'data-testid': 'member',
    'data-feedback': m.feedback ?? '',
    style: `--label:${colors.background};--row:${tint(colors.background, CHIP_BASE, 0.2)}`,
    title: kind === 'positive' ? t.coming : kind === 'negative' ? t.notComing : kind === 'awaiting' ? t.awaiting : t.unknown,
  },
  responseIcon(kind),
  h('span', { class: 'member__name' }, m.name),
  m.labelName ? chip(m.labelName, m.labelColor, 'member__label') : null,
  m.position ? h('span', { class: 'member__position' }, m.position) : null);
}

function qualifications(list: Qualification[]): HTMLElement[] {
  return list.map((q) => h('span', { class: 'qual', 'data-testid': 'qualification' }, chip(q.name, q.color), h('span', { class: 'qual__count' }, q.count)));
}

function unitCard(unit: PlannedUnit, t: Strings): HTMLElement {
  const more = [unit.hiddenComing ? t.moreComing(unit.hiddenComing) : '', unit.hiddenPending ? t.moreAwaiting(unit.hiddenPending) : ''].filter(Boolean);
  return h('section', { class: 'unit', 'data-testid': 'unit' },
    h('h3', { class: 'unit__name' }, unit.name || t.unit),
    // Who is coming, by qualification, and how many declined: the line a crew reads first.
    h('div', { class: 'unit__sum' },
      h('span', { class: 'unit__tally tally--positive', 'data-testid': 'unit-coming', title: t.coming }, responseIcon('positive'), unit.coming.length),
      unit.declined ? h('span', { class: 'unit__tally tally--negative', 'data-testid': 'unit-declined', title: t.declinedCount(unit.declined) }, responseIcon('negative'), unit.declined) : null,
      ...qualifications(unit.qualifications)),
    unit.shown.length ? h('ul', { class: 'unit__members' }, ...unit.shown.map((m) => memberRow(m, t))) : null,
    more.length ? h('p', { class: 'unit__more', 'data-testid': 'unit-more', 'data-coming': unit.hiddenComing, 'data-pending': unit.hiddenPending }, more.join(' · ')) : null);
}

/** How a crew box is drawn: the members listed (limit), the units shown (count) and the mode. */
type Mode = 'full' | 'dense' | 'bare';
interface Fit {
  limit: number;
  count: number;
  mode: Mode;
}
type Draw = (fit: Fit) => void;
/** How to redraw a crew box on screen, what it shows (as a key) and its sizes, for fitCrew(). */
const drawers = new WeakMap<HTMLElement, { draw: Draw; key: string; total: number; units: number }>();
// The fit found for a crew in a box of a size: a patch to the counters rebuilds the panel, and the
// crew it draws again fits as before, in one layout instead of a search (bounded, oldest out first).
const fitted = new Map<string, Fit>();

/** The units box of a panel, drawn with everyone listed; fitCrew() then fits it to its space. */
export function crewView(units: Unit[], t: Strings): HTMLElement {
  const crew: CrewUnit[] = crewUnits(units);
  const root = h('div', { class: 'units', 'data-testid': 'units' });
  const draw: Draw = ({ limit, count, mode }) => {
    const hidden = crew.slice(count);
    const coming = hidden.reduce((n, u) => n + u.coming.length, 0);
    root.className = `units units--${mode}`;
    root.replaceChildren(...planCrew(crew.slice(0, count), limit).map((u) => unitCard(u, t)),
      hidden.length ? h('p', { class: 'units__more', 'data-testid': 'units-more', 'data-units': hidden.length, 'data-coming': coming }, t.moreUnits(hidden.length, coming)) : '');
  };
  draw({ limit: Infinity, count: crew.length, mode: 'full' });
  drawers.set(root, { draw, key: JSON.stringify(units), total: listable(crew), units: crew.length });
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

/** Fits a crew box to its space (see the file comment); a box that is not laid out is left as it is. */
export function fitCrew(root: HTMLElement): void {
  const drawer = drawers.get(root);
  if (!drawer || root.clientHeight === 0) return;
  const key = `${root.clientWidth}x${root.clientHeight}|${getComputedStyle(root).fontSize}|${drawer.key}`;
  const known = fitted.get(key);
  const fit = known && fits(root, drawer.draw, known) ? known : search(root, drawer);
  if (fit !== known) drawer.draw(fit);
  fitted.delete(key);
  fitted.set(key, fit);
  if (fitted.size > 32) fitted.delete(fitted.keys().next().value as string);
}

function fits(root: HTMLElement, draw: Draw, fit: Fit): boolean {
  draw(fit);
  // A unit broken across two columns fits in no column: it counts as not fitting.
  const whole = Array.prototype.every.call(root.querySelectorAll('.unit'), (u: Element) => u.getClientRects().length <= 1);
  return whole && root.scrollHeight <= root.clientHeight + 1 && root.scrollWidth <= root.clientWidth + 1;
}

function search(root: HTMLElement, { draw, total, units }: { draw: Draw; total: number; units: number }): Fit {
  const full: Fit = { limit: total, count: units, mode: 'full' };
  if (fits(root, draw, full)) return full;
  const limit = largest(1, total, (n) => fits(root, draw, { limit: n, count: units, mode: 'dense' }));
  if (limit >= 1) return { limit, count: units, mode: 'dense' };
  const count = largest(1, units, (n) => fits(root, draw, { limit: 0, count: n, mode: 'bare' }));
  return { limit: 0, count: Math.max(0, count), mode: 'bare' };
}
