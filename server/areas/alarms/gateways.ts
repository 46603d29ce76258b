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
    const headers = {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    const status = await post(headers, body, timeoutMs, signal);
    if (status >= 200 && status < 300) return;
    // A redirect is not followed: the configured URL is wrong, and stays so on a retry.
    if (status >= 300 && status < 400)
      throw new DeliveryError(`gateway answered ${status}, a redirect, which is not followed`, true);
    // A refusal (4xx) will not change on a retry; a timeout, throttling or a server error may.
    const final = status >= 400 && status < 500 && status !== 408 && status !== 429;
    throw new DeliveryError(`gateway answered ${status}`, final);
  };
}

/** How long a kept connection may sit idle: below the 5 s most servers keep one. */
const IDLE_MS = 4_000;
/** Connections per gateway and process: an alarm's tries go out 250 at a time, an SMS-only alarm's all to one gateway. */
const SOCKETS = 64;

/**
 * POSTs to one gateway over at most SOCKETS connections kept alive (more requests wait for one): the
 * answer's status as soon as it comes (the body is read only to free the connection, so a body cut off
 * or slow changes nothing), or a DeliveryError when none came. node:http rather than fetch: per
 * request, fetch's streams and signals cost about 0.1 ms of CPU more, 100 ms for the 1,000 SMS and calls
 * of a 500-member alarm (bench/perf/notes.md "Dispatch to phone, fourth round").
 */
function poster(url: string) {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const options = { keepAlive: true, timeout: IDLE_MS, maxSockets: SOCKETS };
  const agent = secure ? new https.Agent(options) : new http.Agent(options);
  return (headers: Record<string, string | number>, body: string, timeoutMs: number, signal: AbortSignal) =>
    new Promise<number>((resolve, reject) => {
      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        outcome();
      };
      let req: http.ClientRequest;
      try {
        req = (secure ? https : http).request(target, { method: 'POST', agent, headers }, (res) => {
          settle(() => resolve(res.statusCode ?? 0));
          res.on('end', () => clearTimeout(timer));
          res.on('close', () => clearTimeout(timer));
          res.resume();
        });
      } catch (err) {
        // A header Node refuses (a GATEWAY_TOKEN with a line break): no try will do better.
        reject(new DeliveryError(`the gateway request could not be made (${(err as Error).message})`, true));
        return;
      }
      const fail = (reason: string) => {
        settle(() => reject(new DeliveryError(reason)));
        req.destroy();
      };
      // No answer by the deadline fails the try; an answer whose body has not ended by then frees its
      // connection.
      const timer = setTimeout(() => fail(`gateway did not answer within ${timeoutMs} ms`), timeoutMs);
      const onAbort = () => fail(`gateway unreachable (${(signal.reason as Error | undefined)?.message ?? 'aborted'})`);
      signal.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => {
        // Also a kept connection the gateway closed as this request went out: the outbox tries again
        // (counted, as every request a gateway sees is: AL3's attempts).
        clearTimeout(timer);
        settle(() => reject(new DeliveryError(`gateway unreachable (${err.code ?? err.message})`)));
      });
      req.end(body);
    });
}
