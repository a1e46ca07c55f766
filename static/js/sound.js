// The site's sounds, made here with the Web Audio API (no recorded files): short tones for a
// move, a take, the player's turn, low time, the end of a game and a challenge. The volume
// (0 mutes) is kept in the browser's localStorage and, for a signed-in player, in their
// account (the page's `sound-volume` meta: the saved volume, where to save a new one), which
// then wins on every device they log in with.
//
//   import { playSound } from "/static/js/sound.js";  playSound("challenge");

const STORAGE_KEY = "yourtrumps.soundVolume";
const DEFAULT_VOLUME = 60;
// The loudest a tone gets at volume 100 (of the output's full scale): a short chime, not a bang.
const PEAK_GAIN = 0.3;

// Each sound: tones as [frequency in Hz, start in s, length in s].
const SOUNDS = {
  move: [[660, 0, 0.07]],
  take: [[392, 0, 0.08], [262, 0.08, 0.14]],
  turn: [[523, 0, 0.08], [784, 0.09, 0.14]],
  lowtime: [[988, 0, 0.06], [988, 0.14, 0.06]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.3]],
  challenge: [[784, 0, 0.09], [988, 0.1, 0.09], [1319, 0.2, 0.18]],
};

export const SOUND_NAMES = Object.freeze(Object.keys(SOUNDS));

let context = null;
// Whether the person has acted on the page yet (a key, a click, a tap): before that a browser
// refuses to start audio, and warns of every context made; so none is made, and sounds stay
// silent.
let gestured = false;

function storage() {
  try { return window.localStorage; } catch { return null; }
}

function accountSetting() {
  return document.querySelector('meta[name="sound-volume"]');
}

const clampVolume = (volume) => Math.max(0, Math.min(100, Math.round(volume)));

/** The volume, 0 (muted) to 100: the account's if the player has chosen one, else this
 *  browser's. */
export function soundVolume() {
  const account = accountSetting();
  if (account && account.content !== "" && Number.isFinite(Number(account.content))) {
    return clampVolume(Number(account.content));
  }
  const stored = storage() && storage().getItem(STORAGE_KEY);
  const volume = stored === null || stored === undefined ? DEFAULT_VOLUME : Number(stored);
  return Number.isFinite(volume) ? Math.max(0, Math.min(100, Math.round(volume))) : DEFAULT_VOLUME;
}

/** Keep a new volume (0 mutes) for this browser and, signed in, for the account. */
export function setSoundVolume(volume) {
  const clamped = clampVolume(Number(volume) || 0);
  if (storage()) storage().setItem(STORAGE_KEY, String(clamped));
  const account = accountSetting();
  if (account) {
    account.content = String(clamped);
    // A failed save leaves this browser's choice: the sound is not worth an error. The
    // request outlives the page (keepalive), so a reload right after the choice keeps it.
    fetch(account.dataset.saveUrl, {
      method: "POST",
      keepalive: true,
      headers: { Accept: "application/json", "X-CSRFToken": account.dataset.csrf },
      body: new URLSearchParams({ volume: String(clamped) }),
    }).catch(() => {});
  }
  return clamped;
}

function audio() {
  if (!gestured) return null;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Play the sound `name` (one of SOUND_NAMES) at the kept volume. Returns whether it sounded:
 *  never before the person's first gesture on the page (a spectator who only watches). */
export function playSound(name) {
  const tones = SOUNDS[name];
  if (!tones) return false;
  const volume = soundVolume();
  if (!volume) return false;
  const ctx = audio();
  if (!ctx) return false;
  const peak = (volume / 100) * PEAK_GAIN;
  const start = ctx.currentTime + 0.01;
  for (const [frequency, at, length] of tones) {
    const tone = ctx.createOscillator();
    tone.type = "triangle";
    tone.frequency.value = frequency;
    const gain = ctx.createGain();
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(peak, start + at + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    tone.connect(gain).connect(ctx.destination);
    tone.start(start + at);
    tone.stop(start + at + length + 0.02);
  }
  return true;
}

// Browsers start audio only after a gesture on the page (a tap counts once the finger lifts):
// the first one wakes it.
const GESTURES = ["keydown", "pointerup", "click"];
if (typeof document !== "undefined" && document.addEventListener) {
  const wake = () => {
    for (const name of GESTURES) document.removeEventListener(name, wake);
    gestured = true;
    if (soundVolume()) audio();
  };
  for (const name of GESTURES) document.addEventListener(name, wake);
}
