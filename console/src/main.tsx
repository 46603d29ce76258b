// The staff's pages (docs/console.md): one bundle, the page chosen by the path — /join/<code>, /signin,
// and the signed-in pages under /console (the overview, alarms and one alarm, monitors and screens,
// members, channels, alarm inputs, the journal, things, API keys, the account). The server answers every one of these
// paths with the same page.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from './api.js';
import { lang, t } from './i18n.js';
import { AccountPage } from './pages/account.js';
import { AlarmPage, AlarmsPage } from './pages/alarms.js';
import { AnswerPage } from './pages/answer.js';
import { ChannelsPage } from './pages/channels.js';
import { InputsPage } from './pages/inputs.js';
import { JournalPage } from './pages/journal.js';
import { KeysPage } from './pages/keys.js';
import { ThingsPage } from './pages/things.js';
import { JoinPage } from './pages/join.js';
import { MembersPage } from './pages/members.js';
import { MonitorsPage } from './pages/monitors.js';
import { OverviewPage } from './pages/overview.js';
import { SignInPage } from './pages/signin.js';
import { currentOrganization, loadSession, type Session } from './session.js';
import { Frame, Problem, explain, type Page } from './ui.js';

/** The signed-in pages: the session first; without one, the way to sign in. */
function SignedIn({ page, alarmId }: { page: Page; alarmId?: number }) {
  const [session, setSession] = useState<Session | null>(null);
  const [state, setState] = useState<'loading' | 'signed-out' | string>('loading');
  useEffect(() => {
    loadSession().then(setSession, (err) =>
      setState(err instanceof ApiError && err.status === 401 ? 'signed-out' : explain(err)),
    );
  }, []);
  if (session) {
    const organization = currentOrganization(session);
    if (page === 'account') return <AccountPage session={session} organization={organization} />;
    if (page === 'monitors') return <MonitorsPage session={session} organization={organization} />;
    if (page === 'alarms')
      return alarmId ? (
        <AlarmPage session={session} organization={organization} alarmId={alarmId} />
      ) : (
        <AlarmsPage session={session} organization={organization} />
      );
    if (page === 'members') return <MembersPage session={session} organization={organization} />;
    if (page === 'channels') return <ChannelsPage session={session} organization={organization} />;
    if (page === 'inputs') return <InputsPage session={session} organization={organization} />;
    if (page === 'journal') return <JournalPage session={session} organization={organization} />;
    if (page === 'things') return <ThingsPage session={session} organization={organization} />;
    if (page === 'keys') return <KeysPage session={session} organization={organization} />;
    return <OverviewPage session={session} organization={organization} />;
  }
  if (state === 'signed-out')
    return (
      <Frame title={t.notSignedIn}>
        <a class="button" href={`/signin${location.search}`}>
          {t.signInAgain}
        </a>
      </Frame>
    );
  return (
    <Frame title={t.product}>
      {state === 'loading' ? <p aria-busy="true">{t.loading}</p> : <Problem text={state} />}
    </Frame>
  );
}

document.documentElement.lang = lang;
const root = document.getElementById('app')!;
const join = /^\/join\/([A-Za-z0-9_-]{1,200})\/?$/.exec(location.pathname);
// A member's answer link from his alarm SMS (docs/alarms.md "Answering without the app"): no sign-in.
const answer = /^\/a\/([A-Za-z0-9_-]{1,64})\/?$/.exec(location.pathname);
if (join) render(<JoinPage code={join[1]} />, root);
else if (answer) render(<AnswerPage token={answer[1]} />, root);
else if (location.pathname.startsWith('/signin')) render(<SignInPage />, root);
else {
  const alarm = /^\/console\/alarms\/(\d{1,15})\/?$/.exec(location.pathname);
  const section = /^\/console\/(alarms|monitors|members|channels|inputs|journal|things|keys|account)(\/|$)/.exec(
    location.pathname,
  )?.[1];
  const page: Page = (section as Page | undefined) ?? 'overview';
  render(<SignedIn page={page} alarmId={alarm ? Number(alarm[1]) : undefined} />, root);
}
