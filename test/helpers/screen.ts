// A station screen for tests: a real socket.io-client that records everything the hub sends.
import { io, type Socket } from 'socket.io-client';
import type { Ack, PatchEvent, SnapshotEvent, SubscribeResult } from '../../common/hub-protocol.js';

/** How long a screen waits for an answer or a condition by default: long, as a busy machine may take seconds. */
export const WAIT_MS = 60_000;

export interface Screen {
  socket: Socket;
  events: Array<{ name: string; payload: any }>;
  /** The versions this screen has shown, in order (patches applied and snapshots taken). */
  shown: number[];
  version: number;
  subscribe(monitorId: number, version?: number, epoch?: string): Promise<Ack<SubscribeResult>>;
  waitFor(predicate: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): void;
}

/** Connects with a token; resolves once connected, rejects with the connect_error message. */
export function connectScreen(
  url: string,
  token: string,
  scheme = token.startsWith('ahp_') ? 'personal-access-token' : 'api-token',
  headers: Record<string, string> = {},
): Promise<Screen> {
  const socket = io(url, {
    path: '/socket.io',
    auth: { token, scheme },
    transports: ['websocket'],
    reconnection: true,
    reconnectionDelay: 100,
    reconnectionDelayMax: 500,
    extraHeaders: headers,
  });
  const screen: Screen = {
    socket,
    events: [],
    shown: [],
    version: -1,
    subscribe: (monitorId, version, epoch) =>
      socket
        .timeout(WAIT_MS)
        .emitWithAck(
          'monitor:subscribe',
          version === undefined ? { monitorId } : { monitorId, version, ...(epoch ? { epoch } : {}) },
        ),
    async waitFor(predicate, timeoutMs = WAIT_MS, what = 'condition') {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => void socket.close(),
  };
  let epoch = '';
  const take = (snapshot: SnapshotEvent) => {
    if (snapshot.version > screen.version || snapshot.reset) {
      screen.version = snapshot.version;
      epoch = snapshot.epoch;
      screen.shown.push(snapshot.version);
    }
  };
  // The client rule of docs/hub.md "Protocol": apply exactly version + 1, otherwise resubscribe for a snapshot.
  let monitorId = 0;
  const resubscribe = async () => {
    const ack = await screen.subscribe(monitorId, screen.version, epoch);
    if ('data' in ack && ack.data.snapshot) take(ack.data.snapshot);
  };
  socket.onAny((name, payload) => screen.events.push({ name, payload }));
  socket.on('monitor:snapshot', take);
  socket.on('monitor:patch', (patch: PatchEvent) => {
    monitorId = patch.monitorId;
    if (patch.version === screen.version + 1 && (!epoch || patch.baseEpoch === epoch)) {
      screen.version = patch.version;
      epoch = patch.epoch;
      screen.shown.push(patch.version);
    } else if (patch.version >= screen.version + 1) {
      // A screen closed meanwhile has no use for the answer.
      void resubscribe().catch(() => undefined);
    }
  });
  const subscribe = screen.subscribe;
  screen.subscribe = async (id, version, held) => {
    monitorId = id;
    const ack = await subscribe(id, version, held);
    if ('data' in ack) {
      if (ack.data.snapshot) take(ack.data.snapshot);
      else if (screen.version < ack.data.version) {
        screen.version = ack.data.version;
        epoch = ack.data.epoch;
      }
    }
    return ack;
  };
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(screen));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}
