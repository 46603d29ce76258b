// Any CSS colour a monitor's data may name (hex, rgb(), hsl(), oklch(), a colour keyword) as RGBA, read
// back from a 1×1 canvas: the browser parses it, contrast.ts does the maths.
import { cssRgb, over, parseColor, textOn, type Rgba } from './contrast.js';

const cache = new Map<string, Rgba | null>();
let ctx: CanvasRenderingContext2D | null | undefined;

function probe(color: string): Rgba | null {
  try {
    if (!CSS.supports('color', color)) return null;
    ctx ??= document.createElement('canvas').getContext('2d', { willReadFrequently: true });
    if (!ctx) return parseColor(color);
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = color;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return { r, g, b, a: a / 255 };
  } catch {
    return null;
  }
}

/** The colour as RGBA, or null when the browser does not accept it as a colour. */
export function resolveColor(color: string): Rgba | null {
  if (!cache.has(color)) {
    if (cache.size > 256) cache.clear();
    cache.set(color, probe(color));
  }
  return cache.get(color) ?? null;
}

/** The colour at `amount` (0–1) over `base`, opaque, as CSS; null for no colour (a row tinted by its label). */
export function tint(color: string | null, base: Rgba, amount: number): string | null {
  const rgba = color ? resolveColor(color) : null;
  return rgba ? cssRgb(over({ ...over(rgba, base), a: amount }, base)) : null;
}

/** A chip's opaque background (the colour over `base`) and its text colour by luminance, as CSS; null for no colour. */
export function chipColors(color: string | null, base: Rgba): { background: string; text: string } | null {
  const rgba = color ? resolveColor(color) : null;
  if (!rgba) return null;
  const background = over(rgba, base);
  return { background: cssRgb(background), text: cssRgb(textOn(background)) };
}
