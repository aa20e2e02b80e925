// The start page's Railroad Ink card: its picture, the mode (solo, against the computer, online
// with friends), the name, the computer player and the dice seed; the game's pitch beside the
// form; and the Railroad Ink games this browser holds.

import { h, nameEl } from '../core/dom.js';
import { dateTimeText, pointsText } from '../core/words.js';
import { myName, rememberName, request, storedPlayer } from '../core/request.js';
import { isNameRefusal, watchName } from '../core/names.js';
import { api, EXPANSIONS, MODES, seats } from './api.js';
import { createBoard, tileSvg } from './draw.js';
import { INK_EXAMPLE } from './viewer.js';
import { variantWords } from '../challenges/words.js';

function agentLabel(name) {
  const known = { random: 'Random (places anywhere legal)', greedy: 'Greedy (best next tile)', strong: 'Strong (looks ahead)' };
  return known[name] || name;
}

function heroBoard(table) {
  const b = createBoard(table, { label: 'An example board' });
  b.svg.classList.add('hero-svg');
  b.setBoard(INK_EXAMPLE);
  return b.svg;
}

/** The game's pitch, with a board, beside the form (the ways to learn are in the page's introduction). */
function hero(table) {
  return h('section', { class: 'hero' },
    h('div', {},
      h('h2', { class: 'hero-title' }, 'Railroad Ink'),
      h('p', { class: 'lead' }, 'Roll the dice, draw the routes. Link the twelve exits of your board with highways and railways in seven rounds, and score the biggest networks.')),
    h('div', { class: 'hero-board' }, heroBoard(table)));
}

/**
 * "Your best: 54" on the Solo card, which says "Beat your best score", when this device's
 * player has finished a solo game (their records, asked with their own key).
 */
function showBest(card) {
  const me = storedPlayer();
  if (!me) return;
  request('GET', '/api/players/me', { token: me.token }).then((profile) => {
    // The base game's: a game with an expansion keeps a best of its own.
    const best = (profile.bests || []).find((b) => b.game === 'ink' && !b.variant && b.mode === 'solo');
    if (best) card.append(h('span', { class: 'personal-best', id: 'solo-best' }, `Your best: ${pointsText(best.best)}`));
  }).catch(() => { /* no records: the card says nothing more */ });
}

/** The new-game form's Railroad Ink part (see pages/start.js for what a card gives). */
async function setup() {
  const table = await api.tiles();
  let mode = 'solo';
  const name = h('input', { id: 'player-name', name: 'name', autocomplete: 'nickname', placeholder: 'Player 1', value: myName() });
  const nameWatch = watchName(name);
  const agent = h('select', { id: 'agent', name: 'agent' },
    table.levels.map((a) => h('option', { value: a, selected: a === table.default_level }, agentLabel(a))));
  const seed = h('input', { id: 'seed', name: 'seed', inputmode: 'numeric', autocomplete: 'off', placeholder: 'random' });
  const agentRow = h('div', { class: 'field agent-field' }, h('label', { for: 'agent' }, 'Computer player'), agent);
  const modes = [
    ['solo', 'Solo', soloText('none')],
    ['computer', 'Against the computer', 'The computer plays the same rolls on its board, beside yours.'],
    ['online', 'Online with friends', 'Share a link. Everyone plays the same rolls; each round ends when all have finished it.'],
  ];
  const modeCards = modes.map(([value, title, text]) => h('label', { class: 'mode-card' },
    h('input', { type: 'radio', name: 'mode', value, checked: value === mode, onchange: () => { mode = value; agentRow.hidden = mode !== 'computer'; ratedRow.hidden = mode !== 'online'; } }),
    h('span', { class: 'mode-title' }, title),
    h('span', { class: 'mode-text' }, text)));
  agentRow.hidden = true;
  // An online game may change its players' ratings (each player who finishes it).
  const rated = h('input', { type: 'checkbox', id: 'rated', name: 'rated' });
  const ratedRow = h('div', { class: 'field rated-field' },
    h('label', { for: 'rated' }, rated, ' Rated: the result changes each player\'s rating'));
  ratedRow.hidden = mode !== 'online';
  // Deep Blue's own expansions: two optional dice a round, six rounds (a field beside the name,
  // so that the start button stays on the first screen; short words, which a phone's narrow
  // field shows whole, and what the expansion chosen is in a line under both fields).
  const expansion = h('select', { id: 'expansion', name: 'expansion', 'aria-describedby': 'expansion-about' },
    [
      ['none', 'None'],
      ['lake', 'Lake'],
      ['river', 'River'],
    ].map(([value, label]) => h('option', { value }, label)));
  const about = h('p', { class: 'expansion-about muted small', id: 'expansion-about' });
  const describe = () => {
    about.textContent = variantWords(expansion.value);
    about.hidden = expansion.value === 'none';
  };
  describe();
  // The solo card counts the rounds of the game chosen: six with an expansion.
  expansion.addEventListener('change', () => {
    modeCards[0].querySelector('.mode-text').textContent = soloText(expansion.value);
    describe();
  });
  const expansionRow = h('div', { class: 'field expansion-field' }, h('label', { for: 'expansion' }, 'Deep Blue expansion'), expansion);
  showBest(modeCards[0]);
  return {
    art: [tileSvg(table, 'B2', 0), tileSvg(table, 'A3', 1), tileSvg(table, 'S0', 0)],
    parts: [
      h('fieldset', { class: 'modes' }, h('legend', {}, 'Mode'), modeCards),
      h('div', { class: 'fields' },
        h('div', { class: 'field' }, h('label', { for: 'player-name' }, 'Your name'), name, nameWatch.hint),
        expansionRow,
        agentRow,
        ratedRow,
        about),
      h('details', { class: 'more' },
        h('summary', {}, 'More options'),
        h('div', { class: 'field' }, h('label', { for: 'seed' }, 'Dice seed (the same seed gives the same rolls)'), seed)),
    ],
    hero: hero(table),
    async submit() {
      if (!nameWatch.ok()) return null;
      try {
        const n = name.value.trim();
        const taken = await api.create(mode, { name: n, seed: seed.value.trim(), level: mode === 'computer' ? agent.value : undefined, expansion: expansion.value, rated: mode === 'online' && rated.checked });
        rememberName(n);
        seats.add(taken.id, taken.seats, { mode, name: n || 'Player 1' });
        return `/ink/${taken.id}`;
      } catch (e) {
        if (!isNameRefusal(e)) throw e;
        nameWatch.refuse(e.message);
        throw Object.assign(new Error(e.message), { shown: true });
      }
    },
  };
}

/** A Railroad Ink game this browser holds, in "Your games". */
const held = {
  store: seats,
  className: 'game-list',
  state: (g) => api.state(g.id, g.seats[0]?.token),
  describe(st, g) {
    const me = st.players[g.seats[0]?.seat];
    const label = `${MODES[st.mode] || st.mode}${st.expansion ? ` · ${EXPANSIONS[st.expansion] || st.expansion}` : ''}`;
    return [
      h('a', { href: `/ink/${g.id}`, 'data-link': '' }, `${label} · ${st.finished ? 'finished' : st.started === false ? 'waiting to start' : `round ${st.round + 1} of ${st.rounds || 7}`}`),
      h('span', { class: 'muted small' }, me ? [nameEl(me.name), `: ${pointsText(me.score.advanced)} · `] : null, dateTimeText(st.created)),
    ];
  },
};

/** The start page's card (its title and words are in index.js, shown before this loads). */
/** The solo card's words: seven rounds in the base game, six with an expansion. */
function soloText(expansion) {
  return `${expansion === 'none' ? 'Seven' : 'Six'} rounds on your own board. Beat your best score.`;
}

export const inkStart = {
  setup,
  held,
};
