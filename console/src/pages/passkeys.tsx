// Passkeys on the account page and after joining: add one for this device, list and remove them.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime, t } from '../i18n.js';
import { createPasskey } from '../passkey.js';
import { Problem, explain } from '../ui.js';

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The form that creates a passkey for this device. */
export function AddPasskey({ onAdded }: { onAdded(): void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const add = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await createPasskey(name);
      setName('');
      onAdded();
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack" onSubmit={add}>
      <label for="passkey-name">{t.passkeyName}</label>
      <input
        id="passkey-name"
        value={name}
        maxLength={100}
        placeholder={t.passkeyNameHint}
        aria-describedby={problem ? 'passkey-problem' : undefined}
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <div id="passkey-problem">
        <Problem text={problem} />
      </div>
      <button class="button" type="submit" disabled={busy} aria-busy={busy}>
        {busy ? t.loading : t.addPasskey}
      </button>
    </form>
  );
}

/** The person's passkeys, each with a remove button. */
export function PasskeyList({ passkeys, onChanged }: { passkeys: PasskeyView[]; onChanged(): void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const remove = async (id: string) => {
    setProblem(null);
    try {
      await api('DELETE', `/session/passkeys/${encodeURIComponent(id)}`);
      onChanged();
    } catch (err) {
      setProblem(explain(err));
    }
  };
  if (passkeys.length === 0) return <p class="hint">{t.noPasskeys}</p>;
  return (
    <>
      <Problem text={problem} />
      <ul class="list">
        {passkeys.map((p) => (
          <li key={p.id}>
            <div>
              <strong>{p.name}</strong>
              <span class="meta">
                {t.created} {formatTime(p.createdAt)} · {t.lastUsed} {p.lastUsedAt ? formatTime(p.lastUsedAt) : t.never}
              </span>
            </div>
            <button
              class="button small danger"
              type="button"
              onClick={() => remove(p.id)}
              aria-label={t.removePasskey(p.name)}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
