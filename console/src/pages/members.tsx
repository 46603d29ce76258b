// /console/members: the organization's members (P6) and whether each can come (W3), as the hub says
// they change, and for admins the ways to invite (P1), import (P9), change roles (P7) and remove (P8).
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useHubEvent, useNewest } from '../hub.js';
import { formatTime, t } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Problem, Shell, explain } from '../ui.js';
import { AvailabilityBadge, useAvailability } from './availability.js';
import { ImportForm } from './import.js';
import { InviteForm } from './invite.js';

interface Member {
  userId: number;
  name: string;
  role: 'admin' | 'member';
  units: string[];
  joinedAt: string | null;
  lastSeenAt: string | null;
}

export function MembersPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [members, setMembers] = useState<Member[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const admin = organization?.role === 'admin';
  const availability = useAvailability(organization?.id);

  const reads = useNewest();
  const load = useCallback(async () => {
    if (!organization) return;
    try {
      const found = await reads(() => api<{ members: Member[] }>('GET', `/organizations/${organization.id}/members`));
      if (found) setMembers(found.members);
    } catch (err) {
      setProblem(explain(err));
    }
  }, [organization?.id]);
  useEffect(() => void load(), [load]);
  const changed = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === organization?.id) void load();
    },
    [organization?.id, load],
  );
  useHubEvent('members:changed', changed, load);

  const setRole = async (member: Member, role: string) => {
    setProblem(null);
    try {
      await api('PATCH', `/organizations/${organization!.id}/members/${member.userId}`, { role });
    } catch (err) {
      setProblem(explain(err));
    }
    await load();
  };
  const remove = async (member: Member) => {
    if (!confirm(t.removeConfirm(member.name))) return;
    setProblem(null);
    try {
      await api('DELETE', `/organizations/${organization!.id}/members/${member.userId}`);
    } catch (err) {
      setProblem(explain(err));
    }
    await load();
  };

  return (
    <Shell current="members" title={t.membersTitle} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <p class="meta">
            {organization.name}
            {members && ` · ${t.membersCount(members.length)}`}
          </p>
          {!admin && <p class="hint">{t.membersReadOnly}</p>}
          <Problem text={problem} />
          {members === null ? (
            <p aria-busy="true">{t.loading}</p>
          ) : (
            <ul class="list members">
              {members.map((m) => (
                <li key={m.userId}>
                  <div>
                    <strong>
                      {m.name} {m.userId === session.user.id && <span class="meta">{t.you}</span>}
                    </strong>
                    <AvailabilityBadge said={availability?.members.find((a) => a.userId === m.userId)} />
                    <span class="meta">
                      {m.units.length > 0 && `${t.units}: ${m.units.join(', ')} · `}
                      {t.lastSeen} {m.lastSeenAt ? formatTime(m.lastSeenAt) : t.never}
                    </span>
                  </div>
                  {admin ? (
                    <div class="row">
                      <select
                        aria-label={t.changeRole(m.name)}
                        value={m.role}
                        onChange={(e) => setRole(m, (e.target as HTMLSelectElement).value)}
                      >
                        <option value="member">{t.roleMember}</option>
                        <option value="admin">{t.roleAdmin}</option>
                      </select>
                      <button
                        class="button small danger"
                        type="button"
                        aria-label={t.remove(m.name)}
                        onClick={() => remove(m)}
                      >
                        ✕
                      </button>
                    </div>
                  ) : (
                    <span class={`badge ${m.role}`}>{m.role === 'admin' ? t.roleAdmin : t.roleMember}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
          {admin && <InviteForm organizationId={organization.id} />}
          {admin && <ImportForm organizationId={organization.id} />}
        </>
      )}
    </Shell>
  );
}
