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

/** The size a fitted text may shrink to: its CSS `--fit-min` (a registered <length>, so computed in px). */
function fitMin(el: HTMLElement): number {
  return parseFloat(getComputedStyle(el).getPropertyValue('--fit-min')) || 24;
}

/**
 * Shrinks an element's font from its CSS size until its text fits, never below its `--fit-min`: one
 * line if that keeps it large, else two lines, else three at the minimum (a long keyword is read whole).
 */
export function fitText(el: HTMLElement): void {
  el.style.fontSize = '';
  el.classList.remove('fit--three-lines');
  el.classList.add('fit--one-line');
  const max = parseFloat(getComputedStyle(el).fontSize) || 16;
  const min = Math.min(max, fitMin(el));
  // A keyword on one line at 70 % size reads better from afar than one broken over two lines.
  if (shrink(el, max, Math.max(min, max * 0.7))) return;
  el.classList.remove('fit--one-line');
  if (shrink(el, max, min)) return;
  el.classList.add('fit--three-lines');
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
