// Who is signed in (P3) and which of his organizations the pages show: the first one he administers
// unless he picked another (kept in this browser).
import { api } from './api.js';

export interface Organization {
  id: number;
  name: string;
  role: 'admin' | 'member';
}

export interface Session {
  user: { id: number; name: string };
  organizations: Organization[];
  passkeys: number;
}

const PICKED = 'alarm-hub.console.organization';

export function loadSession(): Promise<Session> {
  return api<Session>('GET', '/session');
}

/** The organization the pages show. */
export function currentOrganization(session: Session): Organization | null {
  const picked = Number(localStorage.getItem(PICKED));
  return (
    session.organizations.find((o) => o.id === picked) ??
    session.organizations.find((o) => o.role === 'admin') ??
    session.organizations[0] ??
    null
  );
}

export function pickOrganization(id: number): void {
  localStorage.setItem(PICKED, String(id));
}
