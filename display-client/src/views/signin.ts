// The sign-in view: shown once per screen (and again when the token stops working).
import { parseMonitorId, schemeFor } from '../credentials.js';
import { h } from '../dom.js';
import type { Strings } from '../strings.js';

/** What the form hands back. */
export interface SignInResult {
  token: string | null;
  monitorId: number;
}

/** What the form knows already. */
export interface SignInOptions {
  message?: string;
  monitorId: number | null;
  hasToken: boolean;
  t: Strings;
  onSubmit: (result: SignInResult) => void;
  /** Leads back to the pairing code. */
  onPair: () => void;
}

/** Builds the sign-in form; the token field may stay empty when a stored token should be kept. */
export function signInView(o: SignInOptions): HTMLElement {
  const { t } = o;
  const error = h('p', { class: 'signin__error', 'data-testid': 'signin-error', role: 'alert' }, o.message ?? '');
  const token = h('input', {
    class: 'signin__input',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: o.hasToken ? t.tokenKeep : 'ahk_… / ahp_…',
    'data-testid': 'signin-token',
  });
  const monitor = h('input', {
    class: 'signin__input',
    name: 'monitor',
    inputmode: 'numeric',
    'data-testid': 'signin-monitor',
    value: o.monitorId ?? '',
    placeholder: t.monitorExample,
  });
  const pairLink = h('button', { class: 'pairing__link', type: 'button', 'data-testid': 'signin-pair' }, t.signInPair);
  const form = h(
    'form',
    { class: 'signin', 'data-testid': 'signin' },
    h('h1', { class: 'signin__title' }, t.signInTitle),
    h('p', { class: 'signin__hint' }, t.signInHint),
    error,
    h('label', { class: 'signin__field' }, h('span', {}, t.tokenLabel), token),
    // The monitor normally comes from ?monitor=<id>; the field is shown only when that is missing or wrong.
    o.monitorId === null || o.message
      ? h('label', { class: 'signin__field' }, h('span', {}, t.monitorLabel), monitor)
      : null,
    h('button', { class: 'signin__button', type: 'submit', 'data-testid': 'signin-submit' }, t.connect),
    pairLink,
  );
  if (!o.message) error.hidden = true;
  pairLink.addEventListener('click', o.onPair);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = token.value.trim();
    const monitorId = parseMonitorId(monitor.value || String(o.monitorId ?? ''));
    const problem =
      !value && !o.hasToken
        ? t.needToken
        : // Screen tokens come from pairing only: the page must learn its screen id with them.
          value && (!schemeFor(value) || schemeFor(value) === 'screen-token')
          ? t.badToken
          : monitorId === null
            ? t.needMonitor
            : null;
    if (problem || monitorId === null) {
      error.textContent = problem;
      error.hidden = false;
      return;
    }
    o.onSubmit({ token: value || null, monitorId });
  });
  queueMicrotask(() => token.focus());
  return form;
}

/** A full-screen notice, e.g. when the monitor was deleted; the button leads back to sign-in. */
export function noticeView(
  title: string,
  detail: string,
  testId: string,
  action: string,
  onAction: () => void,
): HTMLElement {
  const button = h('button', { class: 'signin__button', type: 'button' }, action);
  button.addEventListener('click', onAction);
  return h(
    'div',
    { class: 'notice', 'data-testid': testId, role: 'alert' },
    h('h1', { class: 'notice__title' }, title),
    h('p', { class: 'notice__detail' }, detail),
    button,
  );
}
