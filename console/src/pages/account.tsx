// /console/account: the signed-in person's account — his organizations and roles, whether he can come
// (W2), his passkeys, a one-time link to sign in on another device (P5), and signing out (P4).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime, t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Frame, Problem, Shell, explain } from '../ui.js';
import { AvailabilityForm } from './availability.js';
import { AddPasskey, PasskeyList, type PasskeyView } from './passkeys.js';

interface Link {
  link: string;
  expiresAt: string;
}

export function AccountPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [passkeys, setPasskeys] = useState<PasskeyView[] | null>(null);
  const [ended, setEnded] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [link, setLink] = useState<Link | null>(null);
  const [copied, setCopied] = useState(false);

  const load = useCallback(async () => {
    try {
      setPasskeys((await api<{ passkeys: PasskeyView[] }>('GET', '/session/passkeys')).passkeys);
    } catch (err) {
      setProblem(explain(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

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
      setEnded(true);
    } catch (err) {
      setProblem(explain(err));
    }
  };

  if (ended)
    return (
      <Frame title={t.signedOut}>
        <a class="button" href={`/signin${location.search}`}>
          {t.signInAgain}
        </a>
      </Frame>
    );
  return (
    <Shell current="account" title={session.user.name} session={session} organization={organization}>
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
      {organization && <AvailabilityForm organizationId={organization.id} userId={session.user.id} />}
      <section aria-labelledby="keys">
        <h2 id="keys">{t.passkeys}</h2>
        {passkeys === null ? <p aria-busy="true">{t.loading}</p> : <PasskeyList passkeys={passkeys} onChanged={load} />}
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
    </Shell>
  );
}
