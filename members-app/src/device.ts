// This browser as one of the member's devices (docs/members-app.md "Notifications"): its push
// subscription registered as an A1 device of his (`os` naming "Web", `pushToken` the subscription's
// JSON), made with A2 or brought up to date with A4. The page does it after he allowed notifications, and
// on every start (a subscription the browser renewed, a device the service set inactive after its push
// service said "gone"); the service worker does it when the browser renews the subscription itself.
import { api, ApiError } from '../../console/src/api.js';

export interface Device {
  id: number;
  active: boolean;
  name: string;
  os: string;
  ownerID: number;
  pushToken: string;
  pushTokenDevelopment: boolean;
}

/** The endpoint of a web device's subscription (null for another kind of device). */
export function endpointOf(device: Pick<Device, 'os' | 'pushToken'>): string | null {
  if (!/\bweb\b/i.test(device.os)) return null;
  try {
    const endpoint = (JSON.parse(device.pushToken) as { endpoint?: unknown }).endpoint;
    return typeof endpoint === 'string' ? endpoint : null;
  } catch {
    return null;
  }
}

const BROWSERS: Array<[string, RegExp]> = [
  ['Edge', /\bEdg(?:A|iOS)?\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
];
const SYSTEMS: Array<[string, RegExp]> = [
  ['Android', /\bAndroid\b/],
  ['iPhone', /\biPhone\b/],
  ['iPad', /\biPad\b/],
  ['Windows', /\bWindows\b/],
  ['Mac', /\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/**
 * The browser as a device: `os` for the service ("Web Chrome 131 Android": the word "Web" chooses Web
 * Push) and a name for the member's list ("Chrome Android").
 */
export function describeBrowser(userAgent: string): { os: string; name: string } {
  const browser = BROWSERS.map(([name, re]) => ({ name, version: re.exec(userAgent)?.[1] })).find((b) => b.version);
  const system = SYSTEMS.find(([, re]) => re.test(userAgent))?.[0];
  const parts = [browser?.name ?? 'Browser', system].filter(Boolean).join(' ');
  return { os: ['Web', browser?.name, browser?.version, system].filter(Boolean).join(' '), name: parts };
}

/** The member's own devices (A1 without organization_id). */
export function ownDevices(userId: number): Promise<Device[]> {
  return api<Device[]>('GET', `/app/device?owner_id=${userId}`);
}

/** The web device of this subscription among `devices` (or of the one it replaces). */
export function deviceFor(devices: Device[], endpoints: Array<string | undefined>): Device | undefined {
  return devices.find((d) => {
    const endpoint = endpointOf(d);
    return endpoint !== null && endpoints.includes(endpoint);
  });
}

/**
 * Registers `subscription` as the member's device: the device of this endpoint (or of `previous`, the
 * one the browser replaced) gets it with A4 when anything differs; else A2 makes one, its name made
 * unique among his devices ("Chrome Android 2") when the plain one is taken.
 */
export async function registerSubscription(
  userId: number,
  subscription: PushSubscription,
  previous?: string,
): Promise<Device> {
  const pushToken = JSON.stringify(subscription);
  const { os, name } = describeBrowser(navigator.userAgent);
  const devices = await ownDevices(userId);
  const known = deviceFor(devices, [subscription.endpoint, previous]);
  if (known) {
    if (known.active && known.pushToken === pushToken) return known;
    return api<Device>('PUT', `/app/device/${known.id}`, {
      active: true,
      name: known.name,
      os,
      ownerID: userId,
      pushToken,
      pushTokenDevelopment: false,
    });
  }
  const taken = new Set(devices.map((d) => d.name.trim().toLowerCase()));
  let attempt = 1;
  for (;;) {
    const candidate = attempt === 1 ? name : `${name} ${attempt}`;
    attempt++;
    if (taken.has(candidate.toLowerCase())) continue;
    try {
      return await api<Device>('POST', '/app/device', {
        active: true,
        name: candidate,
        os,
        ownerID: userId,
        pushToken,
        pushTokenDevelopment: false,
      });
    } catch (err) {
      // Made by another tab of his at the same moment: try the next name (the service keeps the limit).
      if (!(err instanceof ApiError && err.status === 409) || attempt > 20) throw err;
    }
  }
}
