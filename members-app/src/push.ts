// Notifications on this device (docs/members-app.md "Notifications"), from the page's side: whether the
// browser can have them, whether the member allowed them, and this browser's device among his. The
// permission is asked only when he taps the button that explains it (never on load); once given, every
// start keeps the subscription and the device in step (device.ts). Turning it off here removes the device
// (A6) and the subscription, and is remembered, so that the next start does not turn it on again.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../console/src/api.js';
import { explain } from '../../console/src/ui.js';
import { deviceFor, ownDevices, registerSubscription, type Device } from './device.js';
import { w } from './words.js';

const OFF_HERE = 'alarm-hub.app.push-off';

export type PushSupport = 'unsupported' | 'denied' | 'default' | 'granted';

export interface Push {
  support: PushSupport;
  /** The member's devices (A1), null until read. */
  devices: Device[] | null;
  /** This browser's device, when it has one. */
  here: Device | null;
  busy: boolean;
  problem: string | null;
  notice: string | null;
  enable(): Promise<void>;
  disable(): Promise<void>;
  test(): Promise<void>;
}

function support(): PushSupport {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window))
    return 'unsupported';
  return Notification.permission;
}

/** A base64url key as PushManager.subscribe() takes it on every browser. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

const sameKey = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.length && new Uint8Array(a).every((byte, i) => byte === b[i]);

/** This browser's subscription with the service's VAPID key (W1): the one it has, or a new one. */
async function subscription(): Promise<PushSubscription> {
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes((await api<{ publicKey: string }>('GET', '/webpush/key')).publicKey);
  const current = await registration.pushManager.getSubscription();
  if (current && sameKey(current.options?.applicationServerKey, key)) return current;
  // Made for another key (the installation's keys were replaced): it would never receive a push.
  await current?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

/** Notifications on this device for the member `userId`. */
export function usePush(userId: number): Push {
  const [state, setState] = useState<PushSupport>(support);
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [here, setHere] = useState<Device | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const register = useCallback(async () => {
    const device = await registerSubscription(userId, await subscription());
    setHere(device);
    setDevices(await ownDevices(userId));
  }, [userId]);

  // On every start: his devices, and this browser's kept in step when he allowed notifications before.
  useEffect(() => {
    void (async () => {
      try {
        const mine = await ownDevices(userId);
        setDevices(mine);
        if (state === 'unsupported') return;
        const current = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
        setHere(deviceFor(mine, [current?.endpoint]) ?? null);
        if (state === 'granted' && localStorage.getItem(OFF_HERE) === null) await register();
      } catch (err) {
        // Offline at the start: the devices and the subscription are looked after at the next one.
        if (!(err instanceof ApiError && err.status === 0)) setProblem(w.pushFailed(explain(err)));
      }
    })();
  }, [userId]);

  const enable = async () => {
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      const permission = await Notification.requestPermission();
      setState(permission);
      if (permission !== 'granted') {
        setProblem(permission === 'denied' ? w.pushDenied : w.pushRefused);
        return;
      }
      localStorage.removeItem(OFF_HERE);
      await register();
    } catch (err) {
      setProblem(
        w.pushFailed(err instanceof ApiError ? explain(err) : err instanceof Error ? err.message : String(err)),
      );
    } finally {
      setBusy(false);
    }
  };

  const disable = async () => {
    if (!here) return;
    setBusy(true);
    setProblem(null);
    try {
      await api('DELETE', `/app/device/${here.id}`);
      await (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.unsubscribe();
      localStorage.setItem(OFF_HERE, '1');
      setHere(null);
      setDevices(await ownDevices(userId));
      setNotice(w.pushIsOff);
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };

  const test = async () => {
    if (!here) return;
    setBusy(true);
    setProblem(null);
    setNotice(null);
    try {
      await api('POST', `/app/device/${here.id}/test-push`);
      setNotice(w.pushTestSent);
    } catch (err) {
      setProblem(explain(err));
    } finally {
      setBusy(false);
    }
  };

  return { support: state, devices, here, busy, problem, notice, enable, disable, test };
}
