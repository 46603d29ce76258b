// Chip text colour by luminance (contrast.ts): every label colour gets black or white text at WCAG AA
// (4.5:1) or better. Run in Node.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import {
  AA_CONTRAST,
  BLACK,
  contrast,
  luminance,
  over,
  parseColor,
  textOn,
  WHITE,
  type Rgba,
} from '../display-client/src/contrast.js';

const rgb = (hex: string): Rgba => parseColor(hex)!;
/** The row background chips are painted over (--panel-2). */
const BASE = rgb('#1a2029');

test('luminance and contrast follow WCAG 2.x', () => {
  assert.is(luminance(BLACK), 0);
  assert.is(luminance(WHITE), 1);
  assert.is(contrast(BLACK, WHITE), 21);
  assert.is(contrast(WHITE, BLACK), 21);
  // The white-on-amber chip the issue measured: about 2.1:1.
  assert.ok(Math.abs(contrast(WHITE, rgb('#f59e0b')) - 2.15) < 0.05, String(contrast(WHITE, rgb('#f59e0b'))));
});

test('colours parse from hex and rgb()/rgba() in both syntaxes', () => {
  assert.equal(parseColor('#f59e0b'), { r: 245, g: 158, b: 11, a: 1 });
  assert.equal(parseColor('#FFF'), { r: 255, g: 255, b: 255, a: 1 });
  assert.equal(parseColor('#00000080'), { r: 0, g: 0, b: 0, a: 128 / 255 });
  assert.equal(parseColor('rgb(59, 130, 246)'), { r: 59, g: 130, b: 246, a: 1 });
  assert.equal(parseColor('rgba(59, 130, 246, 0.5)'), { r: 59, g: 130, b: 246, a: 0.5 });
  assert.equal(parseColor('rgb(59 130 246 / 25%)'), { r: 59, g: 130, b: 246, a: 0.25 });
  assert.is(parseColor('not a colour'), null);
  assert.is(parseColor('url(x)'), null);
});

test('the label colours of the screenshots and tests get the text colour with the higher contrast, ≥ 4.5:1', () => {
  const expected: Record<string, Rgba> = {
    '#dc2626': WHITE, // GF, red
    '#3b82f6': BLACK, // MA, blue (black 5.7:1 beats white 3.7:1)
    '#f59e0b': BLACK, // AGT, amber: the white-on-amber of the issue
    '#16a34a': BLACK, // SAN, green
    '#5b6675': WHITE, // no colour: the neutral chip
    '#fde047': BLACK, // yellow
    '#7c3aed': WHITE, // violet
  };
  for (const [hex, text] of Object.entries(expected)) {
    assert.equal(textOn(rgb(hex)), text, hex);
    assert.ok(contrast(rgb(hex), textOn(rgb(hex))) >= AA_CONTRAST, `${hex}: ${contrast(rgb(hex), textOn(rgb(hex)))}`);
  }
});

test('a sweep of 17³ colours, opaque and half transparent over the row: every chip passes AA', () => {
  let worst = Infinity;
  for (let r = 0; r <= 255; r += 15) {
    for (let g = 0; g <= 255; g += 15) {
      for (let b = 0; b <= 255; b += 15) {
        for (const a of [1, 0.5]) {
          const background = over({ r, g, b, a }, BASE);
          worst = Math.min(worst, contrast(background, textOn(background)));
        }
      }
    }
  }
  // The theoretical floor for black-or-white text is 4.58:1 (at luminance 0.179).
  assert.ok(worst >= 4.58 - 1e-9 && worst >= AA_CONTRAST, `worst ${worst}`);
});

test('a translucent colour is composited over the row before it is judged', () => {
  assert.equal(over({ r: 255, g: 255, b: 255, a: 0 }, BASE), BASE);
  assert.equal(over({ r: 255, g: 255, b: 255, a: 1 }, BASE), WHITE);
  assert.equal(
    textOn(over({ r: 253, g: 224, b: 71, a: 0.1 }, BASE)),
    WHITE,
    'a faint yellow over dark blue-grey is dark',
  );
});

test.run();
