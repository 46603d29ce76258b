// The gong and the spoken announcement. Kiosk browsers often block audio until a user gesture, and some
// have no audio at all: every call here swallows its errors, a silent screen is better than a dead one.

let context: AudioContext | null = null;
let createdAt = 0;

function audio(): AudioContext | null {
  try {
    if (!context) {
      const Ctor =
        window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
      if (!Ctor) return null;
      context = new Ctor();
      createdAt = Date.now();
      resume(context);
    }
    return context;
  } catch {
    return null;
  }
}

function resume(ctx: AudioContext): void {
  if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
}

/** Lets a tap or key press on the kiosk unlock audio; listens on, as a later gesture may be needed again. */
export function unlockAudioOnGesture(): void {
  const unlock = () => {
    const ctx = audio();
    if (ctx) resume(ctx);
  };
  window.addEventListener('pointerdown', unlock);
  window.addEventListener('keydown', unlock);
}

/** True when the browser has kept audio suspended (autoplay policy) for over a second: a gong would go unheard. */
export function audioBlocked(nowMs: number): boolean {
  const ctx = audio();
  // The grace second: a context that may play is briefly suspended while it starts.
  return ctx !== null && ctx.state === 'suspended' && nowMs - createdAt > 1000;
}

// One bell strike: a few inharmonic partials with a fast attack and a long decay sound like a gong.
function strike(ctx: AudioContext, at: number, base: number): void {
  const partials: [number, number][] = [
    [1, 0.5],
    [2.01, 0.25],
    [2.76, 0.18],
    [5.4, 0.07],
  ];
  for (const [ratio, level] of partials) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = base * ratio;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(level * 0.6, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 2.4 / ratio ** 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + 2.6);
  }
}

/** Plays a synthesised three-strike gong (no audio file is needed). */
export function playGong(): void {
  try {
    const ctx = audio();
    // Strikes queued on a suspended context would ring late, whenever someone taps the screen.
    if (!ctx || ctx.state !== 'running') return;
    const t = ctx.currentTime + 0.05;
    strike(ctx, t, 660);
    strike(ctx, t + 0.9, 523);
    strike(ctx, t + 1.8, 660);
  } catch {
    // audio blocked or unsupported
  }
}

/** Speaks a text once in `lang` (a BCP 47 tag), replacing anything still being spoken. */
export function speak(text: string, lang: string): void {
  try {
    if (!text.trim() || typeof speechSynthesis === 'undefined') return;
    speechSynthesis.cancel();
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    // A voice of exactly that language, else one of the same primary language ("de-AT" speaks with "de-DE").
    const voices = speechSynthesis.getVoices();
    const primary = lang.toLowerCase().split('-')[0];
    const voice =
      voices.find((v) => v.lang.toLowerCase() === lang.toLowerCase()) ??
      voices.find((v) => v.lang.toLowerCase().split(/[-_]/)[0] === primary);
    if (voice) utterance.voice = voice;
    speechSynthesis.speak(utterance);
  } catch {
    // speech unavailable
  }
}
