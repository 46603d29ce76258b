// Signing in to the app (docs/members-app.md "Signing in"): without a session (P3 answers 401) the app
// offers the passkey of this device, as the console's /signin does (console/src/passkey.ts). A person
// who has none joins with the invitation link of his fire brigade, which leads on to the app.
import { useState } from 'preact/hooks';
import { t } from '../../console/src/i18n.js';
import { signInWithPasskey } from '../../console/src/passkey.js';
import { Problem, explain } from '../../console/src/ui.js';
import { w } from './words.js';

export function SignInScreen({ onSignedIn }: { onSignedIn: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const signIn = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await signInWithPasskey();
      onSignedIn();
    } catch (err) {
      setProblem(explain(err));
      setBusy(false);
    }
  };
  return (
    <div class="app">
      <main class="app-main app-signin">
        <img class="app-signin-icon" src="/app/icon-192.png" alt="" width="96" height="96" />
        <h1>{t.signinTitle}</h1>
        <p>{w.signinLead}</p>
        <Problem text={problem} />
        <button class="button app-wide app-big" type="button" onClick={signIn} disabled={busy} aria-busy={busy}>
          {busy ? t.loading : t.signinButton}
        </button>
        <p class="hint">{t.signinNoPasskey}</p>
      </main>
    </div>
  );
}
