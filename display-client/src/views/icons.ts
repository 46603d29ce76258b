// Feedback and counter icons. The shape carries the meaning (check, cross, dots) so the screen
// stays readable for colour-blind firefighters and on washed-out displays; colour only reinforces it.
import { svg } from '../dom.js';

/** The three kinds of response. */
export type Response = 'positive' | 'negative' | 'awaiting' | 'unknown';

/** Maps a feedback value (1 coming, 0 not coming, 2 awaiting) to a response kind. */
export function responseOf(feedback: number | null): Response {
  if (feedback === 1) return 'positive';
  if (feedback === 0) return 'negative';
  if (feedback === 2) return 'awaiting';
  return 'unknown';
}

const paths: Record<Response, string> = {
  positive: 'M6 12.5l4 4 8-9',
  negative: 'M7 7l10 10M17 7L7 17',
  awaiting: 'M7.6 12h.01M12 12h.01M16.4 12h.01',
  unknown: 'M9.5 9a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7M12 16.5v.5',
};

/** An icon for a response: a circle (coming), a square (not coming) or a diamond with dots (awaiting). */
export function responseIcon(kind: Response): SVGElement {
  const frame =
    kind === 'negative'
      ? svg('rect', { x: 2, y: 2, width: 20, height: 20, rx: 3 })
      : kind === 'awaiting'
        ? svg('path', { d: 'M12 1.5L22.5 12 12 22.5 1.5 12z' })
        : svg('circle', { cx: 12, cy: 12, r: 10.5 });
  return svg(
    'svg',
    { class: `icon icon--${kind}`, viewBox: '0 0 24 24', 'aria-hidden': 'true' },
    frame,
    svg('path', { d: paths[kind], class: 'icon__glyph' }),
  );
}
