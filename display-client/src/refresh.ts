// In-place refreshes that must not rebuild the view: ticking clocks and fitting texts and crews.
// forEach, not for…of, on NodeLists: the repo's lib is ES2022 + DOM without DOM.Iterable.
import { fitText } from './dom.js';
import { fitHead } from './head-fit.js';
import { rowHeights } from './layout.js';
import { clockText, dateText, elapsedText } from './strings.js';
import { fitCrew } from './views/crew.js';

/**
 * Fits every alarm panel's head (head-fit.ts) and other fitted texts ([data-fit]), lines up the split
 * screen's headers and fits the units of every panel to their space.
 */
export function fitAll(root: HTMLElement): void {
  const heads: HTMLElement[] = [];
  root.querySelectorAll<HTMLElement>('.split .panel__head').forEach((el) => {
    el.style.height = '';
    heads.push(el);
  });
  root.querySelectorAll<HTMLElement>('[data-testid=alarm-panel]').forEach((el) => fitHead(el));
  // A keyword is fitted with its head (data-fit="head"); other fitted texts on their own.
  root.querySelectorAll<HTMLElement>('[data-fit]:not([data-fit=head])').forEach((el) => fitText(el));
  alignHeads(heads);
  root.querySelectorAll<HTMLElement>('[data-testid=units]').forEach((el) => fitCrew(el));
}

/**
 * Panels side by side share the height of their row's tallest header, whatever their texts, so that
 * maps, counters and units line up across the row. Stacked panels keep their own (a row of one).
 */
function alignHeads(heads: HTMLElement[]): void {
  // Measure everything first, then write: one layout pass, not one per panel.
  const items = heads.map((el) => ({
    top: Math.round(el.getBoundingClientRect().top),
    height: el.getBoundingClientRect().height,
  }));
  rowHeights(items).forEach((height, i) => {
    if (height > items[i].height + 0.5) heads[i].style.height = `${height}px`;
  });
}

function write(el: HTMLElement, value: string): void {
  // Only changed texts are written: no needless layout work four times a second.
  if (el.textContent !== value) el.textContent = value;
}

/**
 * Updates elapsed times ([data-since]), clocks ([data-clock]) and the date ([data-date-locale]) to server time `now`.
 */
export function tickClocks(root: HTMLElement, now: number): void {
  root.querySelectorAll<HTMLElement>('[data-since]').forEach((el) => {
    const since = Number(el.dataset.since);
    if (el.dataset.since && Number.isFinite(since)) write(el, elapsedText(since, now));
  });
  const clock = clockText(now);
  root
    .querySelectorAll<HTMLElement>('[data-clock]')
    .forEach((el) => write(el, el.dataset.clock === 's' ? clock.s : clock.hm));
  root
    .querySelectorAll<HTMLElement>('[data-date-locale]')
    .forEach((el) => write(el, dateText(now, el.dataset.dateLocale ?? '')));
}
