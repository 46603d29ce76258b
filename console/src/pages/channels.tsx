// /console/channels: how alarms reach the members and how an SMS or a call raises one (docs/console.md
// "Channels"): the organization's switch per way (A8/A9, S5/S6, C5/C6), its SMS and call PINs (S1–S4,
// C1–C4, with the alarm template a call raises), the text of the alarm SMS (S7/S8), and each member's
// app devices, mobiles and phones. Admins change them; members read what the API shows them. The hub
// says when the members change (`members:changed`); everything else is read again on each connection.
import { useCallback, useState } from 'preact/hooks';
import { useHubEvent } from '../hub.js';
import { t, words } from '../i18n.js';
import type { Organization, Session } from '../session.js';
import { Shell } from '../ui.js';
import { PeopleSection } from './channels-people.js';
import { PinSection } from './channels-pins.js';
import { FlagsSection, FormatterSection } from './channels-settings.js';

const w = words(
  {
    title: 'Kanäle: App, SMS und Anruf',
    onThisPage: 'Auf dieser Seite',
    toFlags: 'Wege an und aus',
    toSms: 'SMS-PIN',
    toCall: 'Anruf-PIN',
    toFormat: 'SMS-Text',
    toPeople: 'Geräte und Nummern',
    readOnly: 'Sie sehen die Einstellungen nur; ändern kann sie die Verwaltung.',
  },
  {
    title: 'Channels: app, SMS and calls',
    onThisPage: 'On this page',
    toFlags: 'Ways on and off',
    toSms: 'SMS PIN',
    toCall: 'Call PIN',
    toFormat: 'SMS text',
    toPeople: 'Devices and numbers',
    readOnly: 'You see the settings only; admins change them.',
  },
);

export function ChannelsPage({ session, organization }: { session: Session; organization: Organization | null }) {
  const [round, setRound] = useState(0);
  const [membersRound, setMembersRound] = useState(0);
  const admin = organization?.role === 'admin';
  const changed = useCallback(
    (event: { organizationId: number }) => {
      if (event.organizationId === organization?.id) setMembersRound((n) => n + 1);
    },
    [organization?.id],
  );
  const again = useCallback(() => setRound((n) => n + 1), []);
  useHubEvent('members:changed', changed, again);

  const jump = (id: string, label: string) => <a href={`#${id}`}>{label}</a>;
  return (
    <Shell current="channels" title={w.title} session={session} organization={organization}>
      {!organization ? (
        <p>{t.noOrganization}</p>
      ) : (
        <>
          <p class="meta">{organization.name}</p>
          {!admin && <p class="hint">{w.readOnly}</p>}
          <nav class="channels-jumps" aria-label={w.onThisPage}>
            {jump('flags', w.toFlags)}
            {jump('pins-sms', w.toSms)}
            {jump('pins-call', w.toCall)}
            {jump('formatter', w.toFormat)}
            {jump('people', w.toPeople)}
          </nav>
          <FlagsSection organizationId={organization.id} admin={admin} round={round} />
          <PinSection channel="sms" organizationId={organization.id} admin={admin} round={round} />
          <PinSection channel="call" organizationId={organization.id} admin={admin} round={round} />
          <FormatterSection organizationId={organization.id} admin={admin} round={round} />
          <PeopleSection
            organizationId={organization.id}
            admin={admin}
            self={{ userId: session.user.id, name: session.user.name }}
            round={round}
            membersRound={membersRound}
          />
        </>
      )}
    </Shell>
  );
}
