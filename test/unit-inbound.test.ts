// InboundAlarms (server/areas/alarms/inbound.ts) with its store failing: tries spent on a message whose
// configurations could not be read are given back, so a gateway retrying through a database outage
// never spends its sender's limit and the alarm is raised when the database answers again.
import { test } from './helpers/suite.js';
import * as assert from 'uvu/assert';
import { pino } from 'pino';
import { InboundAlarms, WRONG_PINS } from '../server/areas/alarms/inbound.js';
import { Limits } from '../server/http/limits.js';
import type { AlarmingDoc } from '../server/areas/channels/models.js';

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

test.run();
