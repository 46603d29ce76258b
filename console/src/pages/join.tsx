// /join/<code>: an invitation or a sign-in link opened on the person's device (P2), then a passkey for
// it (PK1, PK2) so that he signs in later without a link, and the way on to the members' alarm app
// (/app, docs/members-app.md).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t, words } from '../i18n.js';
import { AddPasskey } from './passkeys.js';
import { Frame, Problem, explain } from '../ui.js';

const jw = words({ toApp: 'Zur Alarm-App' }, { toApp: 'To the alarm app' });

interface Joined {
  user: { id: number; name: string };
}

export function JoinPage({ code }: { code: string }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [joined, setJoined] = useState<Joined | null>(null);

  const join = async () => {
    setBusy(true);
    setProblem(null);
    try {
      setJoined(await api<Joined>('POST', '/join', { code }));
      // The code is used: a reload must not try it again.
      history.replaceState(null, '', `/console${location.search}`);
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };

  if (joined)
    return (
      <Frame title={t.joinedTitle(joined.user.name)}>
        <p>{t.joinedLead}</p>
        <AddPasskey onAdded={() => location.assign(`/console${location.search}`)} />
        <p>
          <a class="button" href={`/app${location.search}`}>
            {jw.toApp}
          </a>
        </p>
        <p>
          <a class="button secondary" href={`/console${location.search}`}>
            {t.toAccount}
          </a>
        </p>
      </Frame>
    );
  return (
    <Frame title={t.joinTitle}>
      <p>{t.joinLead}</p>
      <Problem text={problem} />
      <button class="button" type="button" onClick={join} disabled={busy} aria-busy={busy}>
        {busy ? t.joining : t.joinButton}
      </button>
    </Frame>
  );
}
