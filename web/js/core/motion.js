// Motion and sounds. Motion (the dice rolling in, the computer's tiles appearing one by one) is
// left out when the system asks for reduced motion; the style sheet stops every animation then
// too. Sounds (a placement, a new round, the end of a game) are made with WebAudio, are off until
// the player turns them on, and the choice is remembered on this device.

import { h, s } from './dom.js';

/** Whether the system asks for reduced motion (checked each time: it may change). */
export function reducedMotion() {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

const KEY = 'tracklayer:sounds';

export function soundsOn() {
  try {
    return localStorage.getItem(KEY) === 'on';
  } catch {
    return false;
  }
}

function setSounds(on) {
  try {
    if (on) localStorage.setItem(KEY, 'on'); else localStorage.removeItem(KEY);
  } catch { /* private mode: the choice lasts this page */ }
}

let audio = null;

/** The notes of each sound: [frequency (Hz), start (s), length (s)]. */
const SOUNDS = {
  place: { wave: 'triangle', gain: 0.18, notes: [[520, 0, 0.07], [780, 0.03, 0.06]] },
  round: { wave: 'sine', gain: 0.16, notes: [[523, 0, 0.14], [659, 0.11, 0.14], [784, 0.22, 0.22]] },
  end: { wave: 'sine', gain: 0.16, notes: [[523, 0, 0.16], [659, 0.14, 0.16], [784, 0.28, 0.16], [1047, 0.42, 0.45]] },
};

/**
 * Plays one of the sounds (`place`, `round`, `end`) if sounds are on. What was played is noted
 * on the page (`data-sound` and `data-sound-count` on <html>) for tests and the curious.
 */
export function play(kind) {
  const sound = SOUNDS[kind];
  if (!sound || !soundsOn()) return;
  const root = document.documentElement;
  root.dataset.sound = kind;
  root.dataset.soundCount = String(Number(root.dataset.soundCount || 0) + 1);
  try {
    audio ??= new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === 'suspended') audio.resume();
    const now = audio.currentTime + 0.01;
    for (const [freq, start, length] of sound.notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = sound.wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(sound.gain, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch { /* no audio on this device: silence */ }
}

/** The button that turns the sounds on and off (remembered on this device). */
export function soundToggle() {
  const button = h('button', { class: 'btn small sound-toggle', id: 'sound-toggle', type: 'button' });
  const show = () => {
    const on = soundsOn();
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    button.title = on ? 'Sounds are on: placing, a new round, the end' : 'Sounds are off';
    // A loudspeaker, drawn (not every system font has one), with sound waves when on.
    const speaker = s('svg', { class: 'sound-icon', viewBox: '0 0 20 20', 'aria-hidden': 'true' },
      s('path', { d: 'M2 7h4l5-4v14l-5-4H2z' }),
      on
        ? s('path', { class: 'waves', d: 'M13.5 6.5a5 5 0 0 1 0 7M15.8 4.2a8.2 8.2 0 0 1 0 11.6', fill: 'none' })
        : s('path', { class: 'waves', d: 'M13.5 7.5l5 5M18.5 7.5l-5 5', fill: 'none' }));
    // The name stays "Sounds"; whether they are on is the button's pressed state (and its icon).
    button.replaceChildren(speaker, h('span', { class: 'sound-label' }, 'Sounds'));
  };
  button.addEventListener('click', () => {
    setSounds(!soundsOn());
    show();
    if (soundsOn()) play('place');
  });
  show();
  return button;
}
