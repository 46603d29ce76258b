// /console/keys: the organization's API keys (K1–K3, docs/people.md "API keys") for its integrations —
// the dispatch centre's interface, a script, a gateway. A new key's token is shown once, here; revoking
// refuses it at once everywhere. Only admins see this page's content (members have no right to keys).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime, t, words } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain, fieldProblems } from '../ui.js';

const w = words(
  {
    title: 'API-Schlüssel',
    lead: 'Ein API-Schlüssel lässt ein anderes System im Namen der Organisation arbeiten, z. B. die Schnittstelle der Leitstelle. Er hat alle Rechte in der Organisation: Geben Sie ihn nur dorthin, wo er gebraucht wird, und widerrufen Sie ihn, wenn er nicht mehr gebraucht wird.',
    adminsOnly: 'Nur die Verwaltung der Organisation sieht und verwaltet ihre API-Schlüssel.',
    none: 'Noch keine API-Schlüssel.',
    createTitle: 'Neuer API-Schlüssel',
    name: 'Wofür ist er?',
    nameHint: 'z. B. „Leitstelle“ oder „Wetterstation“',
    nameProblem: 'Bitte einen Namen in einer Zeile, höchstens 100 Zeichen.',
    create: 'Schlüssel erzeugen',
    madeTitle: (name: string) => `Schlüssel „${name}“`,
    madeLead: 'Kopieren Sie ihn jetzt: Er wird nur dieses eine Mal gezeigt. Gespeichert wird nur ein Fingerabdruck.',
    token: (name: string) => `Schlüssel „${name}“`,
    made: 'erzeugt',
    used: 'zuletzt benutzt',
    revoked: (time: string) => `widerrufen ${time}`,
    revoke: (name: string) => `„${name}“ widerrufen`,
    revokeConfirm: (name: string) =>
      `Schlüssel „${name}“ widerrufen? Was ihn benutzt, wird sofort abgewiesen. Das lässt sich nicht rückgängig machen.`,
    revokedBadge: 'widerrufen',
    activeBadge: 'aktiv',
    header: 'Benutzt wird er im Kopf jeder Anfrage:',
  },
  {
    title: 'API keys',
    lead: "An API key lets another system work on the organization's behalf, such as the dispatch centre's interface. It has every right in the organization: give it only where it is needed, and revoke it when it is not.",
    adminsOnly: "Only the organization's admins see and manage its API keys.",
    none: 'No API keys yet.',
    createTitle: 'New API key',
    name: 'What is it for?',
    nameHint: 'e.g. "Dispatch centre" or "Weather station"',
    nameProblem: 'Please give a name on one line, at most 100 characters.',
    create: 'Create key',
    madeTitle: (name: string) => `Key "${name}"`,
    madeLead: 'Copy it now: it is shown this once only. Only a fingerprint of it is stored.',
    token: (name: string) => `Key "${name}"`,
    made: 'created',
    used: 'last used',
    revoked: (time: string) => `revoked ${time}`,
    revoke: (name: string) => `Revoke "${name}"`,
    revokeConfirm: (name: string) =>
      `Revoke the key "${name}"? Whatever uses it is refused at once. This cannot be undone.`,
    revokedBadge: 'revoked',
    activeBadge: 'active',
    header: 'It is sent in the header of every request:',
  },
);

interface ApiKey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A new key's token, shown once with a copy button and how it is used. */
function Made({ made }: { made: ApiKey & { token: string } }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" class="stack made-key">
      <h3>{w.madeTitle(made.name)}</h3>
      <p class="hint">{w.madeLead}</p>
      <input
        readOnly
        value={made.token}
        aria-label={w.token(made.name)}
        onFocus={(e) => (e.target as HTMLInputElement).select()}
      />
      <button
        class="button secondary"
        type="button"
        onClick={() =>
          navigator.clipboard?.writeText(made.token).then(
            () => setCopied(true),
            () => undefined,
          )
        }
      >
        {copied ? t.copied : t.copy}
      </button>
      <p class="meta">
        {w.header} <code>API-TOKEN: {made.token.slice(0, 8)}…</code>
      </p>
    </div>
  );
}

function CreateKey({ organizationId, onMade }: { organizationId: number; onMade: () => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [made, setMade] = useState<(ApiKey & { token: string }) | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      setMade(await api<ApiKey & { token: string }>('POST', `/organizations/${organizationId}/api-keys`, { name }));
      setName('');
      onMade();
    } catch (err) {
      const byField = fieldProblems(err, ['name']);
      if (byField.name) byField.name = w.nameProblem;
      setProblems(byField);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="new-key">
      <h2 id="new-key">{w.createTitle}</h2>
      <form class="stack" onSubmit={submit} noValidate>
        <label for="key-name">{w.name}</label>
        <input
          id="key-name"
          value={name}
          required
          maxLength={100}
          autoComplete="off"
          placeholder={w.nameHint}
          aria-invalid={problems.name ? true : undefined}
          aria-describedby={problems.name ? 'key-name-problem' : undefined}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        {problems.name && (
          <span id="key-name-problem" class="field-problem">
            {problems.name}
          </span>
        )}
        <Problem text={problems.form ?? null} />
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : w.create}
        </button>
      </form>
      {made && <Made made={made} />}
    </section>
  );
}

export function KeysPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const admin = organization?.role === 'admin';
  const load = useCallback(async () => {
    if (!organization || organization.role !== 'admin') return;
    try {
      setKeys((await api<{ apiKeys: ApiKey[] }>('GET', `/organizations/${organization.id}/api-keys`)).apiKeys);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organization?.id, organization?.role]);
  useEffect(() => void load(), [load]);
  const revoke = async (key: ApiKey) => {
    if (!confirm(w.revokeConfirm(key.name))) return;
    setProblem(null);
    try {
      await api('DELETE', `/organizations/${organization!.id}/api-keys/${key.id}`);
    } catch (err) {
      setProblem(explain(err));
    }
    await load();
  };
  return (
    <Shell current="keys" title={w.title} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : !admin ? (
        <p class="hint">{w.adminsOnly}</p>
      ) : (
        <>
          <p class="hint">{w.lead}</p>
          <Problem text={problem} />
          {keys === null ? (
            <p aria-busy="true">{t.loading}</p>
          ) : keys.length === 0 ? (
            <p>{w.none}</p>
          ) : (
            <ul class="list">
              {keys.map((k) => (
                <li key={k.id}>
                  <div>
                    <strong>{k.name}</strong>
                    <span class="meta">
                      {w.made} {formatTime(k.createdAt)} · {w.used} {k.lastUsedAt ? formatTime(k.lastUsedAt) : t.never}
                      {k.revokedAt && ` · ${w.revoked(formatTime(k.revokedAt))}`}
                    </span>
                  </div>
                  {k.revokedAt ? (
                    <span class="badge">{w.revokedBadge}</span>
                  ) : (
                    <button class="button small danger" type="button" onClick={() => revoke(k)}>
                      {w.revoke(k.name)}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <CreateKey organizationId={organization.id} onMade={load} />
        </>
      )}
    </Shell>
  );
}
