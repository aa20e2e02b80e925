// The start page's Metro card: its picture, and the form's Metro part, 2 to 6 seats, each a
// person on this device, a person invited by link, or a computer player of some level; and the
// Metro games this browser holds.

import { h, fill, nameList } from '../core/dom.js';
import { dateTimeText } from '../core/words.js';
import { isNameRefusal, watchName } from '../core/names.js';
import { myName, rememberName } from '../core/request.js';
import { levelLabel, metroApi, metroSeats } from './api.js';
import { seatColour, tileSvg } from './draw.js';

const KINDS = [
  ['here', 'Person on this device'],
  ['invite', 'Person invited by link'],
  ['computer', 'Computer player'],
];

/** A little picture of Metro for the game card. */
function metroArt(table) {
  return ['cbaa', 'bbbb', 'dada'].map((code) => tileSvg(table, code, { 'aria-hidden': 'true' }));
}

/**
 * The seat editor. Returns {element, submit()}: submit creates the game and resolves with
 * its id (the seats of people on this device are kept in this browser).
 */
function metroSetup(table, { name = '' } = {}) {
  const seats = [
    { kind: 'here', name },
    { kind: 'computer', name: '', level: table.default_level },
  ];
  const list = h('ol', { class: 'm-seats', id: 'metro-seats' });
  const add = h('button', { class: 'btn small', type: 'button', id: 'add-seat', onclick: () => { seats.push({ kind: 'computer', name: '', level: table.default_level }); draw(); } }, '+ Add a player');
  const count = h('span', { class: 'muted small', id: 'seat-count' });
  const seed = h('input', { id: 'metro-seed', name: 'metro-seed', inputmode: 'numeric', autocomplete: 'off', placeholder: 'random' });
  // A game with people invited by link may change its players' ratings.
  const rated = h('input', { type: 'checkbox', id: 'metro-rated', name: 'metro-rated' });
  const ratedRow = h('div', { class: 'field rated-field' },
    h('label', { for: 'metro-rated' }, rated, ' Rated: the result changes each player\'s rating'));

  function defaultName(i, seat) {
    return seat.kind === 'computer' ? `Computer ${i + 1}` : `Player ${i + 1}`;
  }

  // Each seat's name field's watcher (its live count, and the server's refusal).
  let watchers = [];

  function draw() {
    watchers = [];
    fill(list, seats.map((seat, i) => {
      const dot = h('span', { class: 'm-swatch big', 'aria-hidden': 'true' });
      dot.style.background = seatColour(i);
      const nameInput = h('input', {
        class: 'm-seat-name', name: `seat-${i}-name`, 'aria-label': `Player ${i + 1}'s name`,
        placeholder: defaultName(i, seat), value: seat.name || '',
        oninput: (e) => { seat.name = e.target.value; },
      });
      const watch = watchName(nameInput);
      watchers.push(watch);
      const kind = h('select', {
        class: 'm-seat-kind', name: `seat-${i}-kind`, 'aria-label': `Player ${i + 1} is`,
        onchange: (e) => { seat.kind = e.target.value; if (seat.kind === 'computer') seat.level ??= table.default_level; draw(); },
      }, KINDS.map(([value, label]) => h('option', { value, selected: value === seat.kind }, label)));
      const level = seat.kind === 'computer'
        ? h('select', {
          class: 'm-seat-level', name: `seat-${i}-level`, 'aria-label': `Player ${i + 1}'s level`,
          onchange: (e) => { seat.level = e.target.value; },
        }, table.levels.map((l) => h('option', { value: l, selected: l === seat.level }, levelLabel(l))))
        : null;
      const remove = h('button', {
        class: 'link-button m-seat-remove', type: 'button', title: 'Remove this player', 'aria-label': `Remove player ${i + 1}`,
        disabled: seats.length <= table.min_players,
        onclick: () => { seats.splice(i, 1); draw(); },
      }, '✕');
      return h('li', { class: `m-seat kind-${seat.kind}`, dataset: { seat: i } }, dot, nameInput, kind, level, remove, watch.hint);
    }));
    add.disabled = seats.length >= table.max_players;
    ratedRow.hidden = !seats.some((x) => x.kind === 'invite');
    const here = seats.filter((x) => x.kind === 'here').length;
    count.textContent = `${seats.length} players${here > 1 ? ` · ${here} share this device (pass it on each turn)` : ''}`;
  }
  draw();

  const element = h('div', { class: 'm-setup', id: 'metro-setup' },
    h('fieldset', { class: 'm-seats-fieldset' },
      h('legend', {}, 'Players (2 to 6, in turn order)'),
      list,
      h('div', { class: 'row' }, add, count),
      ratedRow),
    h('details', { class: 'more' },
      h('summary', {}, 'More options'),
      h('div', { class: 'field' }, h('label', { for: 'metro-seed' }, 'Seed (the same seed draws the same tiles)'), seed)));

  async function submit() {
    // Names too long are said at their fields (the first one focused); nothing is sent.
    const long = watchers.map((w) => w.ok()).findIndex((ok) => !ok);
    if (long >= 0) {
      watchers[long].ok();
      throw Object.assign(new Error('A name is too long.'), { shown: true });
    }
    const players = seats.map((seat, i) => {
      const p = { kind: seat.kind === 'computer' ? 'computer' : 'human' };
      const n = (seat.name || '').trim();
      p.name = n || defaultName(i, seat);
      if (seat.kind === 'computer') p.level = seat.level;
      if (seat.kind === 'invite') p.invite = true;
      return p;
    });
    let created;
    try {
      created = await metroApi.create(players, seed.value.trim(), { rated: !ratedRow.hidden && rated.checked });
    } catch (e) {
      // The server's refusal of a name, at the seat whose name holds the character it names.
      // The server names the seat ("players[1]: a name may not hold U+200B, …"); else the
      // seat whose name holds the character it names.
      if (!isNameRefusal(e)) throw e;
      const seatNamed = e.message.match(/^players\[(\d+)\]:\s*([^]*)$/);
      const code = e.message.match(/U\+([0-9A-F]{4,6})/i);
      const ch = code ? String.fromCodePoint(parseInt(code[1], 16)) : null;
      const at = seatNamed ? Number(seatNamed[1]) : ch ? seats.findIndex((x) => (x.name || '').includes(ch)) : -1;
      if (!watchers[at]) throw e;
      watchers[at].refuse(seatNamed ? seatNamed[2] : e.message);
      throw Object.assign(new Error(e.message), { shown: true });
    }
    if (created.seats.length) metroSeats.add(created.id, created.seats);
    const first = seats.find((x) => x.kind === 'here');
    rememberName(first?.name);
    return created.id;
  }

  return { element, submit };
}

/** The new-game form's Metro part (see pages/start.js for what a card gives). */
async function setup() {
  const table = await metroApi.tiles();
  const metro = metroSetup(table, { name: myName() });
  return {
    art: metroArt(table),
    parts: [metro.element],
    submit: async () => `/metro/${await metro.submit()}`,
  };
}

/** A Metro game this browser holds, in "Your games". */
const held = {
  store: metroSeats,
  className: 'game-list m-game-list',
  state: (g) => metroApi.state(g.id, g.seats[0]?.token),
  describe(st, g) {
    const names = g.seats.map((x) => st.players[x.seat]?.name).filter(Boolean);
    const placed = st.sequence.length / 6;
    const turn = st.finished ? 'finished' : `${placed} of 60 tiles placed`;
    return [
      h('a', { href: `/metro/${g.id}`, 'data-link': '' }, `Metro · ${st.players.length} players · ${turn}`),
      h('span', { class: 'muted small' }, nameList(names, { and: ', ' }), `: ${g.seats.map((x) => st.scores[x.seat]).join(', ')} points · ${dateTimeText(st.created)}`),
    ];
  },
};

/** The start page's card (its title and words are in index.js, shown before this loads). */
export const metroStart = {
  setup,
  held,
};
