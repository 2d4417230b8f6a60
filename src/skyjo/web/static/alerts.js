// The turn alert: a short tone or a vibration when your turn comes, for a player whose page
// is in the background (another tab, a phone put down). Off until chosen in the room panel
// (prefs.js); never while the page is visible and focused (the board shows the turn); the
// vibration never under prefers-reduced-motion, the tone only once its player turned it on
// with a click (browsers let a page play sound only after a gesture).
import { canVibrate, pref } from "./prefs.js";

const TONE_HZ = 660;
const TONE_SECONDS = 0.25;
const BUZZ = [120, 80, 120]; // ms: on, off, on

let audio = null; // the page's AudioContext, made on the click that turned the sound on

/** Ready the sound (on the click that turns it on): a context made during a gesture may play. */
export function unlockSound() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  audio ??= new Context();
  audio.resume?.();
}

/** Called on each redraw of a room: alert once when the viewer's turn begins (a move of
 * theirs awaited now, and not at the last redraw or another player moved since: bots that
 * reply within one frame are drawn at once), if the page is not in front of them. */
export function turnAlert(view) {
  const mine = view.legal.size > 0 && !view.ui.replay;
  const others = (view.game.fresh || []).some((event) => event.player !== undefined && event.player !== view.you);
  const began = mine && (!view.ui.alertTurn || others);
  view.ui.alertTurn = mine;
  if (!began || (!document.hidden && document.hasFocus())) return;
  if (pref("alertSound")) tone();
  if (pref("alertVibrate") && canVibrate() && !window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) {
    navigator.vibrate(BUZZ);
  }
}

/** A short soft tone, fading out. */
function tone() {
  if (!audio) unlockSound();
  if (!audio) return;
  const now = audio.currentTime;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.frequency.value = TONE_HZ;
  gain.gain.setValueAtTime(0.2, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + TONE_SECONDS);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(now);
  oscillator.stop(now + TONE_SECONDS);
}
