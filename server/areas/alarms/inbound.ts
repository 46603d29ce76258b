// IN1 and IN2 (docs/alarms.md "Raised"): a gateway reports an SMS or a call to the
// organization's number; the sms- or call-alarming configuration of the sender's number whose PIN it
// carries raises an alarm in that configuration's organization. The answer is the same whatever
// matched, and a sender's wrong PINs are limited (then nothing of it is looked at until the limit
// refills), so neither numbers nor PINs can be probed. A member's reply to his alarm ("J", "N", the keys
// 1 and 2) is asked about first (replies.ts; docs/alarms.md "Answering without the app").
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { IN1Input, IN2Input } from '../../../schemas/alarms.js';
import { unauthorized } from '../../errors.js';
import type { Limiter } from '../../http/limits.js';
import type { AlarmingConfigs } from '../channels/alarming.js';
import type { AlarmingDoc } from '../channels/models.js';
import type { TemplateCommands } from '../templates/commands.js';
import type { AlarmCommands, AlarmInput } from './commands.js';
import { maskTarget } from './gateways.js';

/** Wrong PINs a sender may send before its messages are ignored, and the window they refill over. */
/** A call alarm's keyword without a template (German: the services this is for; an English wall says "Phone alarm"). */
export const PHONE_ALARM = 'Alarm per Telefon';

export const WRONG_PINS = { burst: 5, perSeconds: 600 };
/** What the configurations' PINs look like (schemas/channels.ts): a word of this shape is a try. */
const PIN = /^[0-9]{4,8}$/;

/**
 * Members' replies to their alarms (replies.ts): true when the text or keys were a reply (taken, or
 * ignored for want of an alarm to answer), so that they go no further; a reply is never a PIN.
 */
export interface InboundReplies {
  sms(from: string, text: string): Promise<boolean>;
  call(from: string, digits: string): Promise<boolean>;
}

/** What the inbound doors counted since start (exported as metrics). */
export interface InboundCounts {
  accepted: number;
  raised: number;
  wrongPin: number;
  throttled: number;
}

/** "+49…" and "0049…" alike as the configurations store numbers: "0049…"; anything else is no number. */
export function storedNumber(from: string): string | null {
  const compact = from.replace(/[\s()/-]/g, '');
  const digits = compact.startsWith('+') ? `00${compact.slice(1)}` : compact;
  return /^00[1-9][0-9]{6,14}$/.test(digits) ? digits : null;
}

/** The SMS text without the PIN: its first line is the event, the rest the message. */
export function readSms(text: string, pin: string): { event: string; message: string } {
  const lines = text.split(/\r?\n/).map((line) =>
    line
      .split(/\s+/)
      .filter((word) => word !== '' && word !== pin)
      .join(' '),
  );
  const [first = '', ...rest] = lines.filter((line, i) => line !== '' || i > 0);
  return { event: first || 'SMS alarm', message: rest.join('\n').trim() };
}

const sha = (value: string) => createHash('sha256').update(value).digest();

/** The inbound doors of the SMS and voice gateways. */
export class InboundAlarms {
  readonly counts: InboundCounts = { accepted: 0, raised: 0, wrongPin: 0, throttled: 0 };
  private readonly token: Buffer | null;

  constructor(
    gatewayToken: string | undefined,
    private readonly smsConfigs: Pick<AlarmingConfigs, 'ofNumber'>,
    private readonly callConfigs: Pick<AlarmingConfigs, 'ofNumber'>,
    private readonly alarms: Pick<AlarmCommands, 'raise'>,
    private readonly templates: Pick<TemplateCommands, 'forAlarm'>,
    private readonly wrongPins: Limiter,
    private readonly log: Pick<Logger, 'info' | 'warn'>,
    private readonly replies?: InboundReplies,
  ) {
    this.token = gatewayToken ? sha(gatewayToken) : null;
  }

  /** 401 unless the request carries the configured Gateway-Token (none configured: inbound is off). */
  checkToken(presented: string | undefined): void {
    if (!this.token || presented === undefined || !timingSafeEqual(sha(presented), this.token)) {
      throw unauthorized('Gateway-Token missing or wrong (inbound alarms need INBOUND_GATEWAY_TOKEN on the service)');
    }
  }

  /**
   * IN1: an SMS whose words include the PIN of an sms-alarming configuration of its sender. Every word
   * that could be a PIN (4–8 digits) counts as a try: a text listing many numbers is that many guesses,
   * and one with more than the limit allows matches nothing.
   */
  async sms(input: IN1Input): Promise<{ accepted: true }> {
    if (await this.replies?.sms(input.from, input.text)) {
      this.counts.accepted++;
      return { accepted: true };
    }
    const words = new Set(input.text.split(/\s+/));
    const tried = [...words].filter((word) => PIN.test(word));
    await this.receive(
      'sms',
      input.from,
      this.smsConfigs,
      (config) => tried.length <= WRONG_PINS.burst && words.has(config.pin),
      (config) => ({ ...readSms(input.text, config.pin) }),
      Math.max(1, tried.length),
    );
    return { accepted: true };
  }

  /** IN2: a call whose keyed digits are the PIN of a call-alarming configuration of its caller. */
  async call(input: IN2Input): Promise<{ accepted: true }> {
    if (await this.replies?.call(input.from, input.digits)) {
      this.counts.accepted++;
      return { accepted: true };
    }
    await this.receive(
      'call',
      input.from,
      this.callConfigs,
      (config) => config.pin === input.digits,
      (config) => this.callAlarm(config),
    );
    return { accepted: true };
  }

  // A call raises what its configuration's template says; without one (or one of another organization,
  // as the 2019 clients send any number) the fallback keyword, which each wall shows in its language.
  private async callAlarm(config: AlarmingDoc): Promise<AlarmInput> {
    const templateId = config.alarmTemplateID ?? null;
    const template = await this.templates.forAlarm(config.organizationID, templateId);
    if (!template) return { event: PHONE_ALARM, eventKind: 'phone', templateId };
    return {
      event: template.event,
      message: template.message,
      units: template.units,
      ...(template.channels ? { channels: template.channels } : {}),
      ...(template.monitorIds ? { monitorIds: template.monitorIds, skipUnknownMonitors: true } : {}),
      templateId,
    };
  }

  private async receive(
    source: 'sms' | 'call',
    from: string,
    configs: Pick<AlarmingConfigs, 'ofNumber'>,
    matches: (config: AlarmingDoc) => boolean,
    describe: (config: AlarmingDoc) => AlarmInput | Promise<AlarmInput>,
    tries = 1,
  ): Promise<void> {
    this.counts.accepted++;
    const number = storedNumber(from);
    if (!number) return;
    // The tries are spent before the configurations are looked at, in one atomic take: of messages
    // racing from one sender, only as many tries as the limit holds are ever compared with a PIN (a
    // look first and a take after let a burst of concurrent guesses all through). So a message is only
    // compared while as many tries are left as it has words that could be a PIN.
    const spent = Math.min(tries, WRONG_PINS.burst);
    if ((await this.wrongPins.take(number, spent)) > 0) {
      this.counts.throttled++;
      return;
    }
    let matched: AlarmingDoc[];
    try {
      matched = (await configs.ofNumber(number)).filter(matches);
    } catch (err) {
      // Nothing was compared (the database is away): the gateway's retry must not find the tries spent.
      await this.wrongPins.give(number, spent);
      throw err;
    }
    // Only the words that were a matching PIN are no wrong try: each other word that could be a PIN
    // stays spent, whichever organization's PIN matched (a number several organizations use is no free
    // door to guess another's PIN beside one's own).
    const right = Math.min(spent, new Set(matched.map((config) => config.pin)).size);
    if (right > 0) await this.wrongPins.give(number, right);
    this.counts.wrongPin += spent - right;
    if (matched.length === 0) {
      this.log.info({ source, from: maskTarget(number) }, 'inbound alarm without a matching number and PIN');
      return;
    }
    // One alarm per organization whose configuration matched (a number may serve several).
    for (const config of matched) {
      const alarm = await this.alarms.raise(config.organizationID, source, await describe(config));
      this.counts.raised++;
      this.log.info(
        { source, from: maskTarget(number), organizationId: config.organizationID, alarmId: alarm.id },
        'inbound alarm raised',
      );
    }
  }
}
