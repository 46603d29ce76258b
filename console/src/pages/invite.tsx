// Inviting one person (P1): a link and its QR code to hand over, errors beside the field they concern.
import { useState } from 'preact/hooks';
import { renderSVG } from 'uqr';
import { api } from '../api.js';
import { formatTime, t } from '../i18n.js';
import { Problem, explain, fieldProblems } from '../ui.js';

interface Invitation {
  code: string;
  link: string;
  expiresAt: string;
}

/** A link with its QR code and a copy button. */
export function HandOver({ name, invitation }: { name: string; invitation: Invitation }) {
  const [copied, setCopied] = useState(false);
  const qr = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(renderSVG(invitation.link, { border: 2 }))}`;
  return (
    <div class="hand-over">
      <img class="qr" src={qr} alt={t.qrAlt(name)} width={200} height={200} />
      <div class="stack">
        <input
          readOnly
          value={invitation.link}
          aria-label={t.inviteReady(name)}
          onFocus={(e) => (e.target as HTMLInputElement).select()}
        />
        <span class="meta">{t.linkValidUntil(formatTime(invitation.expiresAt))}</span>
        <button
          class="button secondary"
          type="button"
          onClick={() =>
            navigator.clipboard?.writeText(invitation.link).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        >
          {copied ? t.copied : t.copy}
        </button>
      </div>
    </div>
  );
}

export function InviteForm({ organizationId }: { organizationId: number }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<'member' | 'admin'>('member');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [made, setMade] = useState<{ name: string; invitation: Invitation } | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setProblems({});
    try {
      const invitation = await api<Invitation>('POST', '/invitations', { organizationID: organizationId, name, role });
      setMade({ name: name.trim(), invitation });
      setName('');
    } catch (err) {
      // Each problem the API names goes beside its field; the rest above the button.
      const byField = fieldProblems(err, ['name', 'role']);
      // The schema's own wording ("must match pattern …") is no help to a person.
      if (byField.name) byField.name = t.nameProblem;
      if (byField.role) byField.form ??= explain(err);
      setProblems(byField);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="invite">
      <h2 id="invite">{t.inviteTitle}</h2>
      <p class="hint">{t.inviteLead}</p>
      <form class="stack" onSubmit={submit} noValidate>
        <label for="invite-name">{t.name}</label>
        <input
          id="invite-name"
          value={name}
          required
          maxLength={100}
          autoComplete="off"
          aria-invalid={problems.name ? true : undefined}
          aria-describedby={problems.name ? 'invite-name-problem' : undefined}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        {problems.name && (
          <span id="invite-name-problem" class="field-problem">
            {problems.name}
          </span>
        )}
        <label for="invite-role">{t.role}</label>
        <select
          id="invite-role"
          value={role}
          onChange={(e) => setRole((e.target as HTMLSelectElement).value as 'member' | 'admin')}
        >
          <option value="member">{t.roleMember}</option>
          <option value="admin">{t.roleAdmin}</option>
        </select>
        <Problem text={problems.form ?? null} />
        <button class="button" type="submit" disabled={busy} aria-busy={busy}>
          {busy ? t.loading : t.inviteButton}
        </button>
      </form>
      {made && (
        <div role="status">
          <h3>{t.inviteReady(made.name)}</h3>
          <HandOver name={made.name} invitation={made.invitation} />
        </div>
      )}
    </section>
  );
}
