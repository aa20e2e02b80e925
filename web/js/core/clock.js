// A game's clock, in a game with a time control (its state's `clock`): the time each seat whose
// turn it is has left, counting down each second, and the seats the computer plays because their
// time ran out. The server's deadlines decide; the page only counts down to them.

import { h, fill, s } from './dom.js';

/** A small clock face (no emoji: not every device has the font). */
function clockIcon() {
  return s('svg', { class: 'clock-icon', viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true' },
    s('circle', { cx: 8, cy: 8, r: 6.5, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
    s('path', { d: 'M8 4.2V8l2.6 1.6', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linecap': 'round' }));
}

/** A duration as a clock reads it: `1:43`, `5 h 12 min`, `2 d 3 h` (a challenge's time left is `challenges/words.js`'s, in whole minutes). */
export function durationText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const hours = Math.floor(s / 3600);
  if (hours < 48) return `${hours} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** A time control in words: `30 s a turn`, `1 day a round`. */
export function controlText(control, per = 'turn') {
  if (!control) return '';
  if (control.live !== undefined) {
    const s = control.live;
    return `${s % 60 === 0 ? `${s / 60} min` : `${s} s`} a ${per}`;
  }
  return `${control.days} ${control.days === 1 ? 'day' : 'days'} a ${per}`;
}

/**
 * What the clock says of a seat the computer plays for (null when its person plays it), and,
 * once the game is over, of the turns it played for it.
 */
export function standInWords(state, seat) {
  const c = state.clock?.seats?.[seat];
  if (!c) return null;
  if (state.finished && c.given) return 'time ran out twice · the computer played the rest';
  if (c.given) return 'time ran out twice · the computer plays';
  if (c.stand_in) return 'time ran out · the computer plays this turn';
  if (state.finished && c.timeouts) return `${c.timeouts === 1 ? 'a turn' : `${c.timeouts} turns`} ran out · the computer played ${c.timeouts === 1 ? 'it' : 'them'}`;
  return null;
}

/**
 * The clock line of a game's bar (null in a game without a clock): each running clock, `you`
 * (this device's seat, if one) first, as "Your time 1:43" or "Bob 0:12"; it counts down by
 * itself until it leaves the page.
 */
export function clockLine(state, you) {
  const clock = state.clock;
  if (!clock || state.finished) return null;
  // The server's time now, as this device's clock reads it.
  const offset = clock.now - Date.now();
  // Every person's seat: a running clock counts down; the others wait, or the computer plays.
  const people = clock.seats.filter((c) => state.players[c.seat]?.kind !== 'computer');
  const line = h('p', { class: 'clock-line', id: 'clock', title: `Time control: ${controlText(clock.control, clock.per)}` });
  const draw = () => {
    const now = Date.now() + offset;
    const order = (c) => (c.seat === you ? 0 : c.due ? 1 : 2);
    const parts = [...people].sort((a, b) => order(a) - order(b) || (a.due || 0) - (b.due || 0) || a.seat - b.seat).map((c) => {
      const who = state.players[c.seat]?.name || `Seat ${c.seat + 1}`;
      if (!c.due) {
        const computer = c.given || c.stand_in;
        return h('span', { class: 'clock idle', dataset: { seat: c.seat }, title: computer ? standInWords(state, c.seat) : 'not this seat\'s turn' },
          clockIcon(), ' ', c.seat === you ? 'You' : who, ': ', h('span', { class: 'muted' }, computer ? 'the computer plays' : 'waiting'));
      }
      const name = c.seat === you ? 'Your time' : who;
      const left = c.due - now;
      return h('span', { class: `clock${left < 10_000 ? ' low' : ''}${c.seat === you ? ' mine' : ''}`, dataset: { seat: c.seat } },
        clockIcon(), ' ', name, ' ', h('strong', {}, durationText(left)));
    });
    fill(line, parts.length ? parts : h('span', { class: 'muted' }, controlText(clock.control, clock.per)));
  };
  draw();
  // It stops once it has left the page (or never came onto it).
  let ticks = 0;
  const timer = setInterval(() => {
    ticks += 1;
    if (!line.isConnected && (ticks > 5 || line.dataset.shown)) { clearInterval(timer); return; }
    if (line.isConnected) line.dataset.shown = '1';
    draw();
  }, 1000);
  return line;
}
