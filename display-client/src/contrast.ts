// Text colour on coloured chips, chosen by luminance (WCAG 2.x relative luminance and contrast ratio).
// Black or white: for every opaque background one of them reaches at least 4.58:1, above AA's 4.5:1.
// DOM-free (unit tested in Node); the browser turns any CSS colour into RGBA with color-probe.ts.

/** An sRGB colour, 0–255 per channel, with alpha 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

export const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** WCAG's minimum contrast for normal text (AA). */
export const AA_CONTRAST = 4.5;

const channel = (v: number): number => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** WCAG relative luminance of an opaque colour (0 black … 1 white). */
export function luminance(c: Rgba): number {
  return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
}

/** WCAG contrast ratio of two opaque colours (1 … 21). */
export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** A translucent colour painted over an opaque one: what the eye sees. */
export function over(top: Rgba, below: Rgba): Rgba {
  const mix = (t: number, b: number) => Math.round(t * top.a + b * (1 - top.a));
  return { r: mix(top.r, below.r), g: mix(top.g, below.g), b: mix(top.b, below.b), a: 1 };
}

/** Black or white, whichever contrasts more with the (opaque) background. */
export function textOn(background: Rgba): Rgba {
  return contrast(background, BLACK) >= contrast(background, WHITE) ? BLACK : WHITE;
}

/** `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(…)` or `rgba(…)` (comma or space syntax) as Rgba, else null. */
export function parseColor(css: string): Rgba | null {
  const text = css.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text);
  if (hex) {
    const h = hex[1].length === 3 ? [...hex[1]].map((d) => d + d).join('') : hex[1];
    const byte = (i: number) => parseInt(h.slice(i, i + 2), 16);
    return { r: byte(0), g: byte(2), b: byte(4), a: h.length === 8 ? byte(6) / 255 : 1 };
  }
  const fn = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)\s*(?:[,/]\s*([\d.]+%?)\s*)?\)$/.exec(text);
  if (!fn) return null;
  const alpha = fn[4] === undefined ? 1 : fn[4].endsWith('%') ? parseFloat(fn[4]) / 100 : parseFloat(fn[4]);
  const clamp = (v: number, max: number) => Math.min(max, Math.max(0, v));
  return {
    r: clamp(Math.round(+fn[1]), 255),
    g: clamp(Math.round(+fn[2]), 255),
    b: clamp(Math.round(+fn[3]), 255),
    a: clamp(alpha, 1),
  };
}

/** CSS text of an opaque colour. */
export function cssRgb(c: Rgba): string {
  return `rgb(${c.r}, ${c.g}, ${c.b})`;
}
