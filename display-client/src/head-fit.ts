// Fits an alarm panel's head: the keyword, the address and the message are what the crew reads on the
// way to the vehicle, so none of them is cut (docs/display.md "Readable from five metres"). The head may
// take as much of its panel as the body can spare (the map and the crew need their share; without them
// the text gets most of it); inside that, the three texts wrap and shrink together, never below their
// minimum sizes; only then does the message give up lines, ending in an ellipsis. The keyword and the
// address are never clipped: when even their smallest size needs more room, the head takes it.
//
// The head is measured with the panel's body set aside (display: none): a body with a hundred members
// would otherwise be laid out again for every size tried. Sizes are found by bisection, a handful of
// layouts per panel.
import { fitKeyword, inkRoom } from './dom.js';

/** The share of the panel's height the body keeps, by what it shows and how the panel is shaped. */
function bodyShare(panel: HTMLElement): number {
  const map = panel.querySelector('.panel__map') !== null;
  // A split cell keeps room for a crew even without one: cells of a row line up (split.css).
  const crew =
    panel.classList.contains('panel--compact') ||
    (panel.querySelector('[data-testid=units]')?.childElementCount ?? 0) > 0;
  const wide = panel.clientWidth > panel.clientHeight * 1.2;
  // Side by side (a wide panel) the map and the crew share one row; stacked they add up. The counters
  // alone need about a quarter.
  if (!map && !crew) return 0.26;
  if (!crew) return 0.4;
  if (wide) return 0.5;
  return map ? 0.6 : 0.45;
}

/** Pixels a registered length custom property computes to (the minimum sizes of base.css). */
function px(el: HTMLElement, property: string, fallback: number): number {
  return parseFloat(getComputedStyle(el).getPropertyValue(property)) || fallback;
}

interface Text {
  el: HTMLElement;
  max: number;
  min: number;
}

/** Fits the head of one alarm panel (see the file's head). */
export function fitHead(panel: HTMLElement): void {
  const head = panel.querySelector<HTMLElement>('.panel__head');
  const keyword = panel.querySelector<HTMLElement>('.keyword');
  const body = panel.querySelector<HTMLElement>('.panel__body');
  if (!head || !keyword || !body || panel.clientHeight === 0) return;
  const budget = panel.clientHeight * (1 - bodyShare(panel));
  body.style.display = 'none';
  try {
    fitInside(head, keyword, budget);
  } finally {
    body.style.display = '';
  }
}

function fitInside(head: HTMLElement, keyword: HTMLElement, budget: number): void {
  const message = head.querySelector<HTMLElement>('.message');
  const address = head.querySelector<HTMLElement>('.address');
  for (const el of [message, address]) if (el) el.style.fontSize = '';
  if (message) message.style.webkitLineClamp = '';
  head.style.height = '';

  // The keyword first on its own: one line if that keeps it large, else wrapped at full size.
  const oneLine = fitKeyword(keyword);
  const texts: Text[] = [{ el: keyword, max: parseFloat(keyword.style.fontSize), min: px(keyword, '--fit-min', 24) }];
  for (const el of [message, address])
    if (el) texts.push({ el, max: parseFloat(getComputedStyle(el).fontSize), min: px(el, '--fit-min', 16) });

  const addressText = address?.querySelector<HTMLElement>('span') ?? null;
  const fits = () =>
    head.scrollHeight <= budget + 1 &&
    keyword.scrollWidth <= keyword.clientWidth + 1 &&
    (!addressText || addressText.scrollWidth <= addressText.clientWidth + 1);
  const apply = (scale: number) => {
    for (const t of texts) t.el.style.fontSize = `${Math.max(t.min, Math.floor(t.max * scale))}px`;
    inkRoom(keyword);
  };

  // The largest common scale at which the head fits its share (bisection over a dozen steps); the
  // smallest, with every text at its minimum, when none does.
  const floor = Math.min(...texts.map((t) => t.min / t.max));
  apply(1);
  if (!fits()) {
    let [low, high] = [floor, 1];
    for (let step = 0; step < 10 && high - low > 0.01; step++) {
      const mid = (low + high) / 2;
      apply(mid);
      if (fits()) low = mid;
      else high = mid;
    }
    apply(low);
  }
  // A keyword kept on one line must still fit the width at that size; else it wraps.
  if (oneLine && keyword.scrollWidth > keyword.clientWidth + 1) keyword.classList.remove('fit--one-line');
  if (!fits() && message) clampMessage(head, message, budget, fits);
  // A word wider than the keyword's width even at its smallest size breaks rather than being cut.
  keyword.classList.toggle('fit--break', keyword.scrollWidth > keyword.clientWidth + 1);
}

// The message keeps the lines the head has room for (at least one), ending in an ellipsis.
function clampMessage(head: HTMLElement, message: HTMLElement, budget: number, fits: () => boolean): void {
  const lineHeight = parseFloat(getComputedStyle(message).lineHeight) || parseFloat(message.style.fontSize) * 1.15;
  const others = head.scrollHeight - message.offsetHeight;
  let lines = Math.max(1, Math.floor((budget - others) / lineHeight));
  message.style.webkitLineClamp = String(lines);
  // The estimate may be a line too many (rounding, gaps): one more look, at most a few.
  while (lines > 1 && !fits()) message.style.webkitLineClamp = String(--lines);
}
