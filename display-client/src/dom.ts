// A tiny element builder: enough to keep views declarative without a framework.

type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | number | null | undefined | false;

/** Creates an element; `class`, `data-*`, `style` and other attributes go in `attrs`, falsy children are skipped. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
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
  inkRoom(el);
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

/**
 * The keyword at its CSS size: on one line when that keeps it at 70 % of that size or more (shrunk as
 * far as needed), else on two lines under the same rule, else wrapped at full size; true when it is on
 * one line. Its size is set inline and its room for the ink of diacritics made (head-fit.ts goes on from
 * here: the head as a whole may shrink it further, never cut it).
 */
export function fitKeyword(el: HTMLElement): boolean {
  el.style.fontSize = '';
  el.classList.remove('fit--break');
  el.classList.add('fit--one-line');
  const max = parseFloat(getComputedStyle(el).fontSize) || 16;
  const floor = Math.max(Math.min(max, fitMin(el)), max * 0.7);
  // The largest size in [floor, max] at which `fits` holds, by bisection (a handful of layouts); null if none.
  const largest = (fits: (size: number) => boolean): number | null => {
    if (fits(max)) return max;
    if (!fits(floor)) return null;
    let [low, high] = [floor, max];
    while (high - low > 1) {
      const mid = (low + high) / 2;
      if (fits(mid)) low = mid;
      else high = mid;
    }
    return Math.floor(low);
  };
  const set = (size: number) => (el.style.fontSize = `${size}px`);
  const oneLine = largest((size) => (set(size), el.scrollWidth <= el.clientWidth + 1));
  if (oneLine !== null) set(oneLine);
  else {
    el.classList.remove('fit--one-line');
    const lines = (size: number) => {
      set(size);
      return el.clientHeight / (parseFloat(getComputedStyle(el).lineHeight) || size);
    };
    set(largest((size) => lines(size) < 2.5 && el.scrollWidth <= el.clientWidth + 1) ?? max);
  }
  inkRoom(el);
  return oneLine !== null;
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

let measure: CanvasRenderingContext2D | null = null;

/**
 * How far the glyphs of `text` in `font` reach above and below a line box of `lineHeight` px, in px
 * (0 when inside): capitals with diacritics (Ö, Ü, Ä, É) rise above the font's ascent, and a tight line
 * height (a keyword's 1.02) leaves them no room, so an element that clips its overflow cut their dots.
 */
export function inkOverhang(text: string, font: string, lineHeight: number): { top: number; bottom: number } {
  measure ??= document.createElement('canvas').getContext('2d');
  if (!measure || !text) return { top: 0, bottom: 0 };
  measure.font = font;
  const m = measure.measureText(text);
  const halfLeading = (lineHeight - (m.fontBoundingBoxAscent + m.fontBoundingBoxDescent)) / 2;
  return {
    top: Math.max(0, m.actualBoundingBoxAscent - m.fontBoundingBoxAscent - halfLeading),
    bottom: Math.max(0, m.actualBoundingBoxDescent - m.fontBoundingBoxDescent - halfLeading),
  };
}

/** The text as drawn: CSS text-transform applied (German rules, so ß stays as the font shows it). */
export function shownText(el: HTMLElement): string {
  const text = el.textContent ?? '';
  const transform = getComputedStyle(el).textTransform;
  if (transform === 'uppercase') return text.toLocaleUpperCase('de');
  if (transform === 'lowercase') return text.toLocaleLowerCase('de');
  return text;
}

/**
 * Padding above and below, in em so that it scales with the fitted size, as far as the glyphs' ink
 * reaches out of the line box: the element's clipping edge is its padding box, so the dots stay whole.
 */
export function inkRoom(el: HTMLElement): void {
  el.style.paddingBlock = '';
  const style = getComputedStyle(el);
  const size = parseFloat(style.fontSize) || 16;
  const lineHeight = parseFloat(style.lineHeight) || size * 1.2;
  const font = `${style.fontStyle} ${style.fontWeight} ${size}px ${style.fontFamily}`;
  const { top, bottom } = inkOverhang(shownText(el), font, lineHeight);
  if (top > 0 || bottom > 0)
    el.style.paddingBlock = `${(Math.ceil(top) + 1) / size}em ${(Math.ceil(bottom) + 1) / size}em`;
}
