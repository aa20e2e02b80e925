// The stepper of the replays and the board viewers: first/back buttons, a slider, forward/last
// buttons, and (in a replay) Play.

import { h, s } from './dom.js';

/**
 * A stepper: first/back buttons, a slider from 0 to `max`, forward/last buttons. `onStep(k)`
 * runs when the position changes. Returns {el, set(k, max)}; arrow keys, Home and End step too
 * while the page has no text field focused.
 */
export function stepper({ label, onStep, play = false, interval = 700 }) {
  let at = 0;
  let max = 0;
  // Playing: one step forward every `interval` ms to the end (any other move pauses).
  let timer = null;
  const playButton = play ? h('button', { class: 'btn small play-button', type: 'button', id: 'step-play' }) : null;
  const showPlay = () => {
    if (!playButton) return;
    const playing = timer !== null;
    playButton.setAttribute('aria-pressed', playing ? 'true' : 'false');
    playButton.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    playButton.title = playing ? 'Pause' : 'Play the game from here (from the start when at the end)';
    playButton.replaceChildren(s('svg', { class: 'step-icon', viewBox: '0 0 16 16', 'aria-hidden': 'true' },
      s('path', { d: playing ? 'M3 2h3.5v12H3zM9.5 2H13v12H9.5z' : 'M4 2v12l10-6z' })), playing ? ' Pause' : ' Play');
  };
  const pause = () => {
    if (timer === null) return;
    clearInterval(timer);
    timer = null;
    showPlay();
  };
  const tick = () => {
    if (at >= max) { pause(); return; }
    set(at + 1, max);
    onStep(at);
    if (at >= max) pause();
  };
  playButton?.addEventListener('click', () => {
    if (timer !== null) { pause(); return; }
    if (at >= max) { set(0, max); onStep(0); }
    timer = setInterval(tick, interval);
    showPlay();
  });
  const slider = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, id: 'step-slider', 'aria-label': label });
  const button = (id, text, title, to) => h('button', {
    class: 'btn small', type: 'button', id, title, 'aria-label': title, onclick: () => { pause(); go(to()); },
  }, text);
  // Drawn, not font glyphs: not every system font has ⏮ and ⏭.
  const icon = (d) => s('svg', { class: 'step-icon', viewBox: '0 0 16 16', 'aria-hidden': 'true' }, s('path', { d }));
  const first = button('step-first', icon('M3 2h2v12H3zM14 2v12L6 8z'), 'First', () => 0);
  const back = button('step-back', icon('M12 2v12L4 8z'), 'Back one', () => at - 1);
  const next = button('step-next', icon('M4 2v12l8-6z'), 'Forward one', () => at + 1);
  const last = button('step-last', icon('M11 2h2v12h-2zM2 2v12l8-6z'), 'Last', () => max);
  slider.addEventListener('input', () => { pause(); go(Number(slider.value)); });
  function go(k) {
    const to = Math.max(0, Math.min(max, k));
    if (to === at) return;
    set(to, max);
    onStep(to);
  }
  function set(k, m = max) {
    max = m;
    at = Math.max(0, Math.min(max, k));
    slider.max = String(max);
    slider.value = String(at);
    first.disabled = back.disabled = at === 0;
    next.disabled = last.disabled = at === max;
    slider.disabled = max === 0;
  }
  const onKey = (ev) => {
    const t = ev.target;
    if (t instanceof HTMLTextAreaElement || (t instanceof HTMLInputElement && t.type !== 'range') || t instanceof HTMLSelectElement) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: max }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    pause();
    go(to);
  };
  document.addEventListener('keydown', onKey);
  showPlay();
  const el = h('div', { class: 'stepper' }, playButton, first, back, slider, next, last);
  return {
    el,
    set,
    get at() { return at; },
    close: () => { pause(); document.removeEventListener('keydown', onKey); },
  };
}
