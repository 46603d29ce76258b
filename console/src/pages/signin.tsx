// /signin: a passkey this device holds signs the person in (PK5, PK6).
import { useState } from 'preact/hooks';
import { t } from '../i18n.js';
import { signInWithPasskey } from '../passkey.js';
import { Frame, Problem, explain } from '../ui.js';

export function SignInPage() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const signIn = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await signInWithPasskey();
      location.assign(`/console${location.search}`);
    } catch (err) {
      setProblem(explain(err));
      setBusy(false);
    }
  };
  return (
    <Frame title={t.signinTitle}>
      <p>{t.signinLead}</p>
      <Problem text={problem} />
      <button class="button" type="button" onClick={signIn} disabled={busy} aria-busy={busy}>
        {busy ? t.loading : t.signinButton}
      </button>
      <p class="hint">{t.signinNoPasskey}</p>
    </Frame>
  );
}
