// SMS and voice gateways (docs/alarms.md "Connecting an SMS or voice provider"): each try is one POST of
// {to, text, alarmId, deliveryId} as JSON with the bearer GATEWAY_TOKEN; a 2xx answer means the gateway
// took the message. Numbers never appear in full in a log line or an error (maskTarget).
import type { DeliveryItem } from './models.js';
import { DeliveryError, type Sender } from './outbox.js';

export interface GatewayConfig {
  smsUrl: string | undefined;
  callUrl: string | undefined;
  token: string | undefined;
  timeoutMs: number;
}

/** The last 3 characters of a number or token, as AL3 and the logs show it. */
export function maskTarget(target: string): string {
  return `…${target.slice(-3)}`;
}

/** "0049…" as the gateways receive it: "+49…". */
export function international(gsm: string): string {
  return gsm.startsWith('00') ? `+${gsm.slice(2)}` : gsm;
}

/** A sender posting to `url` (none configured: every try fails for good). */
export function gatewaySender(
  url: string | undefined,
  token: string | undefined,
  timeoutMs: number,
  text: (item: DeliveryItem, alarmId: number) => Promise<string>,
): Sender {
  return async (item, alarmId, signal) => {
    if (!url) throw new DeliveryError('no gateway configured', true);
    const body = JSON.stringify({
      to: international(item.target),
      text: await text(item, alarmId),
      alarmId,
      deliveryId: item.id,
    });
    // The try's limit passed while its text was made: the retry sends it (outbox.ts, Sender).
    if (signal.aborted) throw new DeliveryError('the try ran out of time before it was sent');
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string } };
      throw new DeliveryError(
        e.name === 'TimeoutError'
          ? `gateway did not answer within ${timeoutMs} ms`
          : `gateway unreachable (${e.cause?.code ?? e.message})`,
      );
    }
    // The answer is read to free the connection; only its status counts, so a body cut off changes nothing.
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) return;
    // A refusal (4xx) will not change on a retry; a timeout, throttling or a server error may.
    const final = res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429;
    throw new DeliveryError(`gateway answered ${res.status}`, final);
  };
}
