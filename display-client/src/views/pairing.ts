// The pairing screen: a new screen shows its code large enough to be read from across the room, what
// an admin does with it, and how long it is valid. The token form stays one tap away.
import { h } from '../dom.js';
import { groupCode } from '../pairing.js';
import { elapsedText, type Strings } from '../strings.js';

/** The pairing screen's element and what the controller changes on it. */
export interface PairingView {
  element: HTMLElement;
  /** Shows a code valid until `expiresAt` (server time, ms). */
  showCode: (code: string, expiresAt: number) => void;
  /** A line about a problem, or null to hide it. */
  status: (text: string | null) => void;
  /** Updates the time left to server time `nowMs`. */
  tick: (nowMs: number) => void;
}

/** Builds the pairing screen; `message` says why it is (back) here, `onUseToken` leads to the token form. */
export function pairingView(t: Strings, message: string | undefined, onUseToken: () => void): PairingView {
  const code = h(
    'div',
    { class: 'pairing__code pairing__code--waiting', 'data-testid': 'pairing-code', 'aria-live': 'polite' },
    t.pairRequesting,
  );
  const left = h('p', { class: 'pairing__left', 'data-testid': 'pairing-left' });
  const status = h('p', { class: 'pairing__status', 'data-testid': 'pairing-status', role: 'status' });
  const link = h(
    'button',
    { class: 'pairing__link', type: 'button', 'data-testid': 'pairing-use-token' },
    t.pairUseToken,
  );
  link.addEventListener('click', onUseToken);
  status.hidden = true;
  let expiresAt: number | null = null;

  const element = h(
    'section',
    { class: 'pairing', 'data-testid': 'pairing' },
    message ? h('p', { class: 'pairing__message', 'data-testid': 'pairing-message', role: 'alert' }, message) : null,
    h('h1', { class: 'pairing__title' }, t.pairTitle),
    code,
    left,
    h('p', { class: 'pairing__hint' }, t.pairHint),
    status,
    link,
  );

  return {
    element,
    showCode(next, until) {
      code.textContent = groupCode(next);
      code.classList.remove('pairing__code--waiting');
      expiresAt = until;
    },
    status(text) {
      status.textContent = text ?? '';
      status.hidden = text === null;
    },
    tick(nowMs) {
      const value = expiresAt === null ? '' : t.pairLeft(elapsedText(nowMs, expiresAt));
      if (left.textContent !== value) left.textContent = value;
    },
  };
}
