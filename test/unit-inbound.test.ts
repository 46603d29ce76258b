// InboundAlarms (server/areas/alarms/inbound.ts) with its store failing: tries spent on a message whose
// configurations could not be read are given back, so a gateway retrying through a database outage
// never spends its sender's limit and the alarm is raised when the database answers again.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { pino } from 'pino';
import { InboundAlarms, WRONG_PINS } from '../server/areas/alarms/inbound.js';
import { Limits } from '../server/http/limits.js';
import type { AlarmingDoc } from '../server/areas/channels/models.js';

/** The inbound doors over `configs`, with the alarms they raise (organization IDs) and a fresh limit. */
function inboundOver(configs: { ofNumber(gsm: string): Promise<AlarmingDoc[]> }) {
  const raised: number[] = [];
  const alarms = {
    async raise(organizationId: number) {
      raised.push(organizationId);
      return { id: raised.length } as never;
    },
  };
  const limiter = new Limits({ enabled: false }).create(
    'inbound-wrong-pins',
    WRONG_PINS.burst / WRONG_PINS.perSeconds,
    WRONG_PINS.burst,
    true,
  );
  const templates = { forAlarm: async () => null };
  const inbound = new InboundAlarms('token', configs, configs, alarms, templates, limiter, pino({ level: 'silent' }));
  return { inbound, raised };
}

test(
  'a message whose configurations could not be read spends no try: after more failed tries than ' +
    'the limit, the alarm is raised',
  async () => {
    const number = '004917612345678';
    let failures = WRONG_PINS.burst + 2;
    const configs = {
      async ofNumber(gsm: string): Promise<AlarmingDoc[]> {
        if (failures-- > 0) throw Object.assign(new Error('database away'), { name: 'MongoServerSelectionError' });
        return gsm === number ? [{ organizationID: 7, pin: '4711' } as AlarmingDoc] : [];
      },
    };
    const { inbound, raised } = inboundOver(configs);
    for (let i = 0; i < WRONG_PINS.burst + 2; i++) {
      await inbound.sms({ from: '+4917612345678', text: '4711 Brand' }).then(
        () => assert.unreachable('answered while the store fails'),
        (err: Error) => assert.is(err.message, 'database away'),
      );
    }
    assert.equal(await inbound.sms({ from: '+4917612345678', text: '4711 Brand' }), { accepted: true });
    assert.equal(raised, [7]);
    assert.equal(inbound.counts, { accepted: WRONG_PINS.burst + 3, raised: 1, wrongPin: 0, throttled: 0 });
  },
);

test(
  "another organization's PIN on a shared number opens no free guesses: each other word that could be " +
    'a PIN is a wrong try, and after the limit nothing more is compared',
  async () => {
    // A uses the number with PIN 1100, B with 9999; the sender knows B's PIN and guesses A's beside it.
    const configs = {
      async ofNumber(): Promise<AlarmingDoc[]> {
        return [{ organizationID: 1, pin: '1100' } as AlarmingDoc, { organizationID: 2, pin: '9999' } as AlarmingDoc];
      },
    };
    const { inbound, raised } = inboundOver(configs);
    // 28 messages of B's PIN and four guesses each try 112 PINs at A; 1100 is among the last ones.
    for (let m = 0; m < 28; m++) {
      const guesses = [0, 1, 2, 3].map((k) => String(989 + 4 * m + k).padStart(4, '0'));
      await inbound.sms({ from: '+4917622222222', text: `Probe 9999 ${guesses.join(' ')}` });
    }
    // The first message spends its four wrong guesses (B's PIN is given back), the second would need
    // five tries with one left: from then on the sender is ignored, A's PIN was never compared.
    assert.not.ok(raised.includes(1), `A's alarm raised by guessing: ${JSON.stringify(raised)}`);
    assert.equal(raised, [2]);
    assert.is(inbound.counts.wrongPin, 4);
    assert.is(inbound.counts.throttled, 27);
  },
);

test.run();
