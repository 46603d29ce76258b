// GSM 03.38 (GSM-7): which characters an sms carries in 7 bits, how many units a text needs, and how
// many segments it is sent in. Text outside the alphabet is transliterated, never sent as UCS-2
// (which would cut a segment from 160 to 70 characters).

const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters sent as an escape plus one unit: two units each. */
const EXTENSION = '\f^{}\\[~]|€';
const basic = new Set(BASIC);
const extension = new Set(EXTENSION);

/** Look-alikes for common characters outside the alphabet. */
const SUBSTITUTES: Record<string, string> = {
  '„': '"',
  '“': '"',
  '”': '"',
  '«': '"',
  '»': '"',
  '‘': "'",
  '’': "'",
  '‚': "'",
  '–': '-',
  '—': '-',
  '…': '...',
  '\t': ' ',
  '\u00a0': ' ',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  œ: 'oe',
  Œ: 'OE',
  '°': 'o',
};

/** Units of one segment: a single sms, or each part of a concatenated one (its header takes 7). */
export const SINGLE_SEGMENT = 160;
export const MULTI_SEGMENT = 153;

/** The text with every character outside GSM-7 replaced by a look-alike, its base letter, or "?". */
export function toGsm7(text: string): string {
  let out = '';
  for (const ch of text) {
    if (basic.has(ch) || extension.has(ch)) out += ch;
    else if (SUBSTITUTES[ch] !== undefined) out += SUBSTITUTES[ch];
    else {
      // Accented letters fall back to their base letter (ő → o); anything else becomes "?".
      const base = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      out += [...base].every((c) => basic.has(c)) && base.length > 0 ? base : '?';
    }
  }
  return out;
}

/** Units a GSM-7 text needs (extension characters count twice). */
export function gsm7Units(text: string): number {
  let units = 0;
  for (const ch of text) units += extension.has(ch) ? 2 : 1;
  return units;
}

/** Segments a GSM-7 text is sent in. */
export function segmentsOf(text: string): number {
  const units = gsm7Units(text);
  return units <= SINGLE_SEGMENT ? 1 : Math.ceil(units / MULTI_SEGMENT);
}

/** The longest start of `text` that fits `maxUnits`, ending in "..." when something was cut. */
export function truncateUnits(text: string, maxUnits: number): string {
  if (gsm7Units(text) <= maxUnits) return text;
  let out = '';
  for (const ch of text) {
    if (gsm7Units(out + ch) > maxUnits - 3) break;
    out += ch;
  }
  return `${out.trimEnd()}...`;
}
