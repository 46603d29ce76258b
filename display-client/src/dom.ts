// A tiny element builder: enough to keep views declarative without a framework.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | number | null | undefined | false;

/** Creates an element; `class`, `data-*`, `style` and other attributes go in `attrs`, falsy children are skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Creates an SVG element (icons, markers). */
export function svg(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    // Styles go through the CSSOM, which a strict Content-Security-Policy (no 'unsafe-inline') allows.
    if (name === 'style' && (el instanceof HTMLElement || el instanceof SVGElement)) {
      el.style.cssText = String(value);
      continue;
    }
    el.setAttribute(name, value === true ? '' : String(value));
  }
}

function append(el: Element, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    // Text always goes in as a text node: alarm texts come from outside and must never become markup.
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Two digits, for clocks. */
export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Local time as HH:MM, independent of the browser's locale settings. */
export function hhmm(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** Elapsed time as M:SS or H:MM:SS; negative spans (clock skew) show as 0:00. */
export function elapsed(fromMs: number, nowMs: number): string {
  const total = Math.max(0, Math.floor((nowMs - fromMs) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad2(minutes)}:${pad2(seconds)}` : `${minutes}:${pad2(seconds)}`;
}

/** Shrinks an element's font from its CSS size until its text fits: one line if that keeps it large, else two. */
export function fitText(el: HTMLElement, minPx: number): void {
  el.style.fontSize = '';
  el.classList.add('fit--one-line');
  const max = parseFloat(getComputedStyle(el).fontSize) || 16;
  // A keyword on one line at 70 % size reads better from afar than one broken over two lines.
  if (shrink(el, max, Math.max(minPx, max * 0.7))) return;
  el.classList.remove('fit--one-line');
  shrink(el, max, minPx);
}

function shrink(el: HTMLElement, max: number, min: number): boolean {
  let size = max;
  el.style.fontSize = `${size}px`;
  // Tall fonts overhang their line box a little; only a whole extra line counts as not fitting.
  const overflows = () => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + size * 0.3;
  while (size > min && overflows()) {
    size = Math.max(min, Math.floor(size * 0.94));
    el.style.fontSize = `${size}px`;
  }
  return !overflows();
}

/** Scales a box's content (via the CSS variable --fit) down until nothing overflows; the rest is clipped. */
export function fitBox(el: HTMLElement, minScale: number): void {
  let scale = 1;
  el.style.setProperty('--fit', '1');
  while (scale > minScale && (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)) {
    scale = Math.max(minScale, scale - 0.05);
    el.style.setProperty('--fit', String(scale));
  }
}
