// /console: the signed-in person's account — his organizations and roles, his passkeys, a one-time link
// to sign in on another device (P5), and signing out (P4).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { formatTime, t } from '../i18n.js';
import { Frame, Problem, explain } from '../ui.js';
import { AddPasskey, PasskeyList, type PasskeyView } from './passkeys.js';

interface Session {
  user: { id: number; name: string };
  organizations: Array<{ id: number; name: string; role: 'admin' | 'member' }>;
  passkeys: number;
}

interface Link {
  link: string;
  expiresAt: string;
}

export function AccountPage() {
  const [session, setSession] = useState<Session | null>(null);
  const [passkeys, setPasskeys] = useState<PasskeyView[]>([]);
  const [state, setState] = useState<'loading' | 'ready' | 'signed-out' | 'ended'>('loading');
  const [problem, setProblem] = useState<string | null>(null);
  const [link, setLink] = useState<Link | null>(null);
  const [copied, setCopied] = useState(false);

  const load = async () => {
    try {
      const [me, keys] = await Promise.all([
        api<Session>('GET', '/session'),
        api<{ passkeys: PasskeyView[] }>('GET', '/session/passkeys'),
      ]);
      setSession(me);
      setPasskeys(keys.passkeys);
      setState('ready');
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setState('signed-out');
      else setProblem(explain(err));
    }
  };
  useEffect(() => void load(), []);

  const makeLink = async () => {
    setProblem(null);
    setCopied(false);
    try {
      setLink(await api<Link>('POST', '/session/link'));
    } catch (err) {
      setProblem(explain(err));
    }
  };
  const copy = async () => {
    if (!link) return;
    await navigator.clipboard?.writeText(link.link).then(
      () => setCopied(true),
      () => undefined,
    );
  };
  const signOut = async () => {
    try {
      await api('DELETE', '/session');
      setState('ended');
    } catch (err) {
      setProblem(explain(err));
    }
  };

  if (state === 'signed-out' || state === 'ended')
    return (
      <Frame title={state === 'ended' ? t.signedOut : t.notSignedIn}>
        <a class="button" href={`/signin${location.search}`}>
          {t.signInAgain}
        </a>
      </Frame>
    );
  if (!session)
    return (
      <Frame title={t.accountTitle}>
        <Problem text={problem} />
        {!problem && <p aria-busy="true">{t.loading}</p>}
      </Frame>
    );
  return (
    <Frame title={session.user.name}>
      <Problem text={problem} />
      <section aria-labelledby="orgs">
        <h2 id="orgs">{t.organizations}</h2>
        <ul class="list">
          {session.organizations.map((o) => (
            <li key={o.id}>
              <strong>{o.name}</strong>
              <span class={`badge ${o.role}`}>{o.role === 'admin' ? t.roleAdmin : t.roleMember}</span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="keys">
        <h2 id="keys">{t.passkeys}</h2>
        <PasskeyList passkeys={passkeys} onChanged={load} />
        <AddPasskey onAdded={load} />
      </section>
      <section aria-labelledby="link">
        <h2 id="link">{t.linkTitle}</h2>
        <p class="hint">{t.linkLead}</p>
        {link ? (
          <div class="stack">
            <input
              readOnly
              value={link.link}
              aria-label={t.linkTitle}
              onFocus={(e) => (e.target as HTMLInputElement).select()}
            />
            <span class="meta">{t.linkValidUntil(formatTime(link.expiresAt))}</span>
            <button class="button secondary" type="button" onClick={copy}>
              {copied ? t.copied : t.copy}
            </button>
          </div>
        ) : (
          <button class="button secondary" type="button" onClick={makeLink}>
            {t.linkButton}
          </button>
        )}
      </section>
      <button class="button secondary sign-out" type="button" onClick={signOut}>
        {t.signOut}
      </button>
    </Frame>
  );
}
