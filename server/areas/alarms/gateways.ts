// SMS and voice gateways (docs/alarms.md "Connecting an SMS or voice provider"): each try is one POST of
// {to, text, alarmId, deliveryId} as JSON with the bearer GATEWAY_TOKEN; a 2xx answer means the gateway
// took the message. Numbers never appear in full in a log line or an error (maskTarget).
import http from 'node:http';
import https from 'node:https';
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
  const post = url ? poster(url) : null;
  return async (item, alarmId, signal) => {
    if (!post) throw new DeliveryError('no gateway configured', true);
    const body = JSON.stringify({
      to: international(item.target),
      text: await text(item, alarmId),
      alarmId,
      deliveryId: item.id,
    });
    // The try's limit passed while its text was made: the retry sends it (outbox.ts, Sender).
    if (signal.aborted) throw new DeliveryError('the try ran out of time before it was sent');
    const status = await post(body, token, timeoutMs, signal);
    if (status >= 200 && status < 300) return;
    // A refusal (4xx) will not change on a retry; a timeout, throttling or a server error may.
    const final = status >= 400 && status < 500 && status !== 408 && status !== 429;
    throw new DeliveryError(`gateway answered ${status}`, final);
  };
}

/**
 * POSTs JSON to one gateway over connections kept alive (the outbox's concurrency bounds how many):
 * the answer's status, or a DeliveryError when none came. node:http rather than fetch: per request,
 * fetch's streams and signals cost about 0.1 ms of CPU more, 100 ms for the 1,000 SMS and calls of a
 * 500-member alarm (bench/perf/notes.md "Dispatch to phone").
 */
function poster(url: string) {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  return (body: string, token: string | undefined, timeoutMs: number, signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        outcome();
      };
      const req = (secure ? https : http).request(
        target,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          // The answer is read to free the connection; only its status counts, so a body cut off
          // changes nothing.
          const status = res.statusCode ?? 0;
          res.on('end', () => settle(() => resolve(status)));
          res.on('close', () => settle(() => resolve(status)));
          res.resume();
        },
      );
      const fail = (reason: string) => {
        settle(() => reject(new DeliveryError(reason)));
        req.destroy();
      };
      const timer = setTimeout(() => fail(`gateway did not answer within ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => fail(`gateway unreachable (${(signal.reason as Error | undefined)?.message ?? 'aborted'})`);
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: Error & { code?: string }) => fail(`gateway unreachable (${err.code ?? err.message})`));
      req.end(body);
    });
}
