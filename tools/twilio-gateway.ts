// An SMS gateway for alarm-hub over Twilio's Messages API (docs/alarms.md "Connecting an SMS or voice
// provider"). POST /send takes the service's {to, text, alarmId, deliveryId} and sends it through
// Twilio; POST /inbound takes Twilio's messaging webhook (checked against its X-Twilio-Signature) and
// hands the SMS to the service's IN1. Environment: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM,
// GATEWAY_TOKEN (what the service sends), ALARM_HUB_URL and INBOUND_GATEWAY_TOKEN (for IN1),
// TWILIO_WEBHOOK_URL (the public URL Twilio calls /inbound at), PORT (8081), TWILIO_API (Twilio's base).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';

const env = (name: string, fallback?: string) => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} must be set (see docs/alarms.md)`);
  return value;
};
const [sid, authToken, from, gatewayToken] = [
  'TWILIO_ACCOUNT_SID',
  'TWILIO_AUTH_TOKEN',
  'TWILIO_FROM',
  'GATEWAY_TOKEN',
].map((n) => env(n));
const api = env('TWILIO_API', 'https://api.twilio.com');
const seen = new Set<string>();

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
// Twilio signs the webhook URL followed by every POST parameter (name and value), sorted by name.
const twilioSignature = (url: string, params: URLSearchParams) =>
  createHmac('sha1', authToken)
    .update(
      url +
        [...params.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([k, v]) => k + v)
          .join(''),
    )
    .digest('base64');

async function send(body: { to: string; text: string; deliveryId: string }): Promise<number> {
  // A repeated delivery (the service retried after a crash) is not sent twice by this process.
  if (seen.has(body.deliveryId)) return 200;
  const res = await fetch(`${api}/2010-04-01/Accounts/${sid}/Messages.json`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${sid}:${authToken}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ To: body.to, From: from, Body: body.text }),
  });
  if (res.ok) seen.add(body.deliveryId);
  // The service retries 408, 429 and 5xx, and fails other refusals at once.
  return res.ok ? 200 : res.status === 429 || res.status >= 500 ? 503 : 400;
}

async function inbound(params: URLSearchParams): Promise<number> {
  const res = await fetch(`${env('ALARM_HUB_URL')}/api/v1/inbound/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'gateway-token': env('INBOUND_GATEWAY_TOKEN') },
    body: JSON.stringify({ from: params.get('From') ?? '', text: params.get('Body') ?? '' }),
  });
  return res.status === 202 ? 200 : 502;
}

http
  .createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', async () => {
      let status = 404;
      try {
        if (req.method === 'POST' && req.url === '/send') {
          status = same(req.headers.authorization ?? '', `Bearer ${gatewayToken}`) ? await send(JSON.parse(text)) : 401;
        } else if (req.method === 'POST' && req.url === '/inbound') {
          const params = new URLSearchParams(text);
          status = same(
            String(req.headers['x-twilio-signature'] ?? ''),
            twilioSignature(env('TWILIO_WEBHOOK_URL'), params),
          )
            ? await inbound(params)
            : 403;
        }
      } catch {
        status = 503;
      }
      res.writeHead(status, { 'content-type': req.url === '/inbound' ? 'text/xml' : 'application/json' });
      res.end(req.url === '/inbound' && status === 200 ? '<Response/>' : '{}');
    });
  })
  .listen(Number(env('PORT', '8081')), () => console.log('twilio gateway listening'));
