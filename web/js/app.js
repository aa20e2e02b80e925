// The app: a start screen (game and mode), the rules with every tile, and the game.

import { api, seats } from './api.js';
import { h, fill, nameEl } from './dom.js';
import { createBoard, tileSvg } from './draw.js';
import { gameScreen } from './game.js';
import { metroScreen } from './metro.js';
import { metroApi } from './metro-api.js';
import { listMetroGames, metroArt, metroSetup } from './metro-start.js';
import { inkViewerScreen, metroViewerScreen } from './viewer.js';
import { inkReplayScreen, metroReplayScreen, recentGamesScreen } from './replay.js';
import { metroRulesScreen, rulesTabs } from './metro-rules.js';
import { challengeCards, challengeScreen, challengesScreen } from './challenges.js';
import { playerScreen } from './player-page.js';
import { isNameRefusal, watchName } from './names.js';
import { inkTutorialScreen, metroTutorialScreen } from './tutorial.js';

const main = document.getElementById('app');
// A touch screen with no hover has no keys to tell of (the pages hide their key help).
document.documentElement.classList.toggle('touch', window.matchMedia('(hover: none) and (pointer: coarse)').matches);
let leave = null;

function setTitle(text) {
  document.title = text ? `${text} · tracklayer` : 'tracklayer: Railroad Ink and Metro';
}

/** A Railroad Ink game's title: "Round 3 of 7 · Railroad Ink · tracklayer". */
function setInkTitle(text) {
  setTitle(text ? `${text} · Railroad Ink` : 'Railroad Ink');
}

export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  route();
}

document.addEventListener('click', (ev) => {
  const a = ev.target.closest('a[data-link]');
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
  ev.preventDefault();
  navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', () => route());

async function route() {
  if (leave) { leave(); leave = null; }
  main.classList.remove('spectator', 'offline');
  const path = location.pathname;
  document.querySelectorAll('.site-nav a').forEach((a) => {
    const href = a.getAttribute('href');
    a.classList.toggle('active', href === path || (href !== '/' && path.startsWith(`${href}/`)));
  });
  window.scrollTo(0, 0);
  let table;
  try {
    table = await api.tiles();
  } catch (e) {
    fill(main, h('section', { class: 'card narrow' }, h('h1', {}, 'The server cannot be reached'), h('p', {}, e.message)));
    return;
  }
  const challenge = path.match(/^\/challenges\/([A-Za-z0-9_-]+)$/);
  const playerPage = path.match(/^\/players\/([0-9a-f]{24})$/);
  if (path === '/challenges' || path === '/challenges/') {
    main.dataset.screen = 'challenges';
    leave = await challengesScreen(main, { navigate, setTitle });
    return;
  }
  if (challenge) {
    main.dataset.screen = 'challenge';
    leave = await challengeScreen(main, challenge[1], { navigate, setTitle });
    return;
  }
  if (playerPage) {
    main.dataset.screen = 'player';
    leave = await playerScreen(main, playerPage[1], { setTitle });
    return;
  }
  const metroGame = path.match(/^\/metro\/([0-9a-f]{24})$/);
  const metroReplay = path.match(/^\/metro\/([0-9a-f]{24})\/replay$/);
  if (metroReplay) {
    main.dataset.screen = 'replay';
    leave = await metroReplayScreen(main, metroReplay[1], { setTitle: (t) => setTitle(t ? `${t} · Metro` : 'Metro') });
    return;
  }
  if (path === '/tutorial/ink' || path === '/tutorial/metro') {
    main.dataset.screen = 'tutorial';
    const tutorial = path === '/tutorial/ink' ? inkTutorialScreen : metroTutorialScreen;
    leave = await tutorial(main, { table, navigate, setTitle });
    return;
  }
  if (path === '/rules/metro') {
    main.dataset.screen = 'rules';
    leave = await metroRulesScreen(main, { setTitle });
    return;
  }
  if (path === '/view/metro') {
    main.dataset.screen = 'viewer';
    leave = await metroViewerScreen(main, { navigate, setTitle });
    return;
  }
  if (metroGame) {
    main.dataset.screen = 'game';
    leave = await metroScreen(main, metroGame[1], { navigate });
    return;
  }
  const game = path.match(/^\/ink\/([0-9a-f]{24})$/);
  const viewer = path === '/view' || path === '/view/ink';
  const replay = path.match(/^\/ink\/([0-9a-f]{24})\/replay$/);
  main.dataset.screen = game ? 'game' : viewer ? 'viewer' : replay ? 'replay' : path === '/games' ? 'games'
    : path === '/rules' ? 'rules' : 'start';
  if (viewer) {
    leave = await inkViewerScreen(main, { table, navigate, setTitle });
  } else if (replay) {
    leave = await inkReplayScreen(main, replay[1], { table, setTitle: setInkTitle });
  } else if (path === '/games') {
    leave = await recentGamesScreen(main, { setTitle });
  } else if (game) {
    fill(main, h('p', { class: 'loading' }, 'Loading the game…'));
    leave = await gameScreen(main, game[1], { table, navigate, setTitle: setInkTitle });
  } else if (path === '/rules') {
    setTitle('Railroad Ink rules');
    rulesScreen(table);
  } else {
    setTitle('');
    leave = startScreen(table);
  }
}

// ---- start screen

function startScreen(table) {
  let game = 'ink';
  let mode = 'solo';
  const error = h('p', { class: 'form-error', role: 'alert' });
  const name = h('input', { id: 'player-name', name: 'name', autocomplete: 'nickname', placeholder: 'Player 1', value: localStorage.getItem('tracklayer:name') || '' });
  const nameWatch = watchName(name);
  const agent = h('select', { id: 'agent', name: 'agent' },
    table.agents.map((a) => h('option', { value: a, selected: a === table.default_agent }, agentLabel(a))));
  const seed = h('input', { id: 'seed', name: 'seed', inputmode: 'numeric', autocomplete: 'off', placeholder: 'random' });
  const agentRow = h('div', { class: 'field agent-field' }, h('label', { for: 'agent' }, 'Computer player'), agent);
  const modes = [
    ['solo', 'Solo', 'Seven rounds on your own board. Beat your best score.'],
    ['computer', 'Against the computer', 'The computer plays the same rolls on its board, beside yours.'],
    ['online', 'Online with friends', 'Share a link. Everyone plays the same rolls; each round ends when all have finished it.'],
  ];
  const modeCards = modes.map(([value, title, text]) => h('label', { class: 'mode-card' },
    h('input', { type: 'radio', name: 'mode', value, checked: value === mode, onchange: () => { mode = value; agentRow.hidden = mode !== 'computer'; } }),
    h('span', { class: 'mode-title' }, title),
    h('span', { class: 'mode-text' }, text)));
  agentRow.hidden = true;
  const start = h('button', { class: 'btn primary big', type: 'submit', id: 'start' }, 'Start the game');
  const inkParts = [
    h('fieldset', { class: 'modes' }, h('legend', {}, 'Mode'), modeCards),
    h('div', { class: 'fields' },
      h('div', { class: 'field' }, h('label', { for: 'player-name' }, 'Your name'), name, nameWatch.hint),
      agentRow),
    h('details', { class: 'more' },
      h('summary', {}, 'More options'),
      h('div', { class: 'field' }, h('label', { for: 'seed' }, 'Dice seed (the same seed gives the same rolls)'), seed)),
  ];
  // Metro: its seat editor, once the engine's Metro table has arrived.
  let metro = null;
  const metroSlot = h('div', { class: 'metro-slot', hidden: true });
  const metroInput = h('input', { type: 'radio', name: 'game', value: 'metro', disabled: true, onchange: () => chooseGame('metro') });
  const metroArtSlot = h('span', { class: 'game-art' });
  const metroCard = h('label', { class: 'game-card disabled', id: 'game-metro' },
    metroInput,
    metroArtSlot,
    h('span', { class: 'mode-title' }, 'Metro'),
    h('span', { class: 'mode-text' }, '2 to 6 players on one board: lay tiles to run lines from your stations, the longer the better, double into the centre.'));
  const chooseGame = (value) => {
    game = value;
    form.querySelector('#game-ink').classList.toggle('selected', value === 'ink');
    metroCard.classList.toggle('selected', value === 'metro');
    for (const part of inkParts) part.hidden = value !== 'ink';
    metroSlot.hidden = value !== 'metro';
  };
  metroApi.tiles().then((metroTable) => {
    metro = metroSetup(metroTable, { name: localStorage.getItem('tracklayer:name') || '' });
    fill(metroSlot, metro.element);
    fill(metroArtSlot, metroArt(metroTable));
    metroInput.disabled = false;
    metroCard.classList.remove('disabled');
  }).catch(() => { /* Metro stays unavailable; Railroad Ink works on */ });
  const form = h('form', {
    class: 'card start-card',
    onsubmit: async (ev) => {
      ev.preventDefault();
      error.textContent = '';
      if (game === 'metro') {
        if (!metro) return;
        start.disabled = true;
        try {
          navigate(`/metro/${await metro.submit()}`);
        } catch (e) {
          // A name refused is said at its seat.
          if (!e.shown) error.textContent = e.message;
          start.disabled = false;
        }
        return;
      }
      if (!nameWatch.ok()) return;
      start.disabled = true;
      try {
        const n = name.value.trim();
        const taken = await api.create(mode, { name: n, seed: seed.value.trim(), agent: mode === 'computer' ? agent.value : undefined });
        localStorage.setItem('tracklayer:name', n);
        seats.save({ id: taken.id, seat: taken.seat, token: taken.token, mode, name: n || 'Player 1' });
        navigate(`/ink/${taken.id}`);
      } catch (e) {
        if (isNameRefusal(e)) nameWatch.refuse(e.message);
        else error.textContent = e.message;
        start.disabled = false;
      }
    },
  },
  h('h2', {}, 'New game'),
  h('fieldset', { class: 'games' },
    h('legend', {}, 'Game'),
    h('label', { class: 'game-card selected', id: 'game-ink' },
      h('input', { type: 'radio', name: 'game', value: 'ink', checked: true, onchange: () => chooseGame('ink') }),
      h('span', { class: 'game-art' }, tileSvg(table, 'B2', 0), tileSvg(table, 'A3', 1), tileSvg(table, 'S0', 0)),
      h('span', { class: 'mode-title' }, 'Railroad Ink'),
      h('span', { class: 'mode-text' }, 'Deep Blue Edition: connect the exits with highways and railways.')),
    metroCard),
  inkParts,
  metroSlot,
  error,
  start);
  const yours = h('section', { class: 'card your-games', hidden: true }, h('h2', {}, 'Your games'));
  const today = h('section', { class: 'challenges-today', id: 'challenges-today', hidden: true, 'aria-labelledby': 'today-title' });
  // The form first (its Start button above the fold); beside it, at the top, today's
  // challenges (on a phone, right under the form), then the game's pitch.
  fill(main,
    h('div', { class: 'start-grid' },
      form,
      h('div', { class: 'start-side' },
        today,
        h('section', { class: 'hero' },
          h('div', {},
            h('h1', {}, 'Railroad Ink'),
            h('p', { class: 'lead' }, 'Roll the dice, draw the routes. Link the twelve exits of your board with highways and railways in seven rounds, and score the biggest networks.'),
            h('p', { class: 'row' },
              h('a', { href: '/tutorial/ink', 'data-link': '', class: 'btn', id: 'tutorial-ink' }, 'Learn to play'),
              h('a', { href: '/rules', 'data-link': '', class: 'btn' }, 'Read the rules'),
              h('a', { href: '/tutorial/metro', 'data-link': '', class: 'btn', id: 'tutorial-metro' }, 'Learn Metro'))),
          h('div', { class: 'hero-board' }, heroBoard(table))),
        yours)));
  listGames(yours);
  listMetroGames(yours);
  return challengeCards(today, { navigate });
}

function agentLabel(name) {
  const known = { random: 'Random (places anywhere legal)', greedy: 'Greedy (best next tile)', strong: 'Strong (looks ahead)' };
  return known[name] || name;
}

function heroBoard(table) {
  const b = createBoard(table, { label: 'An example board' });
  b.svg.classList.add('hero-svg');
  b.setBoard('A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52');
  return b.svg;
}

async function listGames(section) {
  const mine = seats.all();
  if (!mine.length) return;
  const list = h('ul', { class: 'game-list' });
  section.append(list);
  section.hidden = false;
  for (const g of mine.slice(0, 12)) {
    const item = h('li', {}, h('span', { class: 'muted' }, 'Loading…'));
    list.append(item);
    api.state(g.id, g.token).then((st) => {
      const me = st.players[g.seat];
      const label = { solo: 'Solo', computer: 'Against the computer', online: 'Online', challenge: 'Challenge' }[st.mode] || st.mode;
      fill(item,
        h('a', { href: `/ink/${g.id}`, 'data-link': '' }, `${label} · ${st.finished ? 'finished' : st.started === false ? 'waiting to start' : `round ${st.round + 1} of 7`}`),
        h('span', { class: 'muted small' }, me ? [nameEl(me.name), `: ${me.score.advanced} points · `] : null, new Date(st.created).toLocaleString()),
        h('button', { class: 'link-button small', type: 'button', title: 'Forget this game on this device', onclick: () => { seats.remove(g.id); item.remove(); } }, 'Forget'));
    }).catch((e) => {
      if (e.status === 404 || e.status === 403) { seats.remove(g.id); item.remove(); } else fill(item, h('span', { class: 'muted' }, e.message));
    });
  }
}

// ---- rules screen

function rulesScreen(table) {
  const tileCard = (t) => h('figure', { class: 'tile-card', dataset: { tile: t.tile } },
    tileSvg(table, t.tile, 0),
    h('figcaption', {}, h('strong', {}, t.tile), ` ${t.kind}`,
      h('span', { class: 'edges' }, ['N', 'E', 'S', 'W'].map((side, i) => `${side} ${edgeWord(t.edges[0][i])}`).join(' · '))));
  const group = (source) => table.tiles.filter((t) => t.source === source).map(tileCard);
  const orientations = h('div', { class: 'orientations' },
    [0, 1, 2, 3, 4, 5, 6, 7].map((o) => h('figure', { class: 'tile-card small' }, tileSvg(table, 'B1', o), h('figcaption', {}, `B1, orientation ${o}`))));
  const board = createBoard(table, { label: 'The empty board with its exits' });
  board.svg.classList.add('rules-board');
  const points = h('table', { class: 'points' },
    h('tr', {}, h('th', {}, 'Exits in a network'), table.exit_points.map((_, i) => h('td', {}, i))),
    h('tr', {}, h('th', {}, 'Points'), table.exit_points.map((p) => h('td', {}, p))));
  fill(main, h('article', { class: 'rules' },
    h('div', { class: 'viewer-head' }, h('h1', {}, 'How to play Railroad Ink'), rulesTabs('ink')),
    h('p', { class: 'tutorial-link' }, 'New to Railroad Ink? ', h('a', { href: '/tutorial/ink', 'data-link': '', id: 'tutorial-link' }, 'Learn it in six tiles'), ', each checked by the game as you place it.'),
    h('p', { class: 'lead' }, 'Each player has a 7×7 board with twelve exits on its edge. In each of seven rounds four dice are rolled and every player draws the same four tiles onto their own board. Link exits into networks: the more exits a network joins, the more it scores.'),
    h('section', { class: 'rules-grid' },
      h('div', {},
        h('h2', {}, 'The board'),
        h('p', {}, 'Rows A–G run top to bottom, columns 0–6 left to right: D3 is the middle square. The shaded 3×3 squares in the middle are the centre. Twelve exits sit on the edge: highways (grey, dashed) and railways (dark, with ties).'),
        h('h2', {}, 'A round'),
        h('ol', {},
          h('li', {}, 'Die A is rolled three times and die B once. All players use the same roll.'),
          h('li', {}, 'Place each die\'s tile on an empty square, in any of eight orientations (rotate with R, flip with F).'),
          h('li', {}, 'A tile must connect: one of its routes continues a route already on the board or meets an exit of the same kind. A highway may never touch a railway, and a route may not run into an exit of the other kind.'),
          h('li', {}, 'You may undo within the round. The round ends when every die is placed, or when no die left fits anywhere.'))),
      h('div', {}, board.svg)),
    h('h2', {}, 'The tiles'),
    h('p', {}, 'Highways are wide grey roads with a dashed centre line; railways are thin dark lines with ties. Stations (the dark building) are the only places where a highway and a railway join. The overpass carries the highway over the railway: the two do not connect.'),
    h('h3', {}, 'Die A (three dice a round)'), h('div', { class: 'tile-grid' }, group('A')),
    h('h3', {}, 'Die B (one die a round)'), h('div', { class: 'tile-grid' }, group('B')),
    h('h3', {}, 'Specials'),
    h('p', {}, `Six special tiles, each once a game. You may add at most ${table.specials_per_round} special a round and ${table.specials_per_game} in a game, before, between or after your dice.`),
    h('div', { class: 'tile-grid' }, group('S')),
    h('h3', {}, 'Orientations'),
    h('p', {}, 'Orientations 0–3 turn the tile clockwise a quarter at a time; 4–7 flip it left to right first.'),
    orientations,
    h('h2', {}, 'Scoring'),
    h('ul', {},
      h('li', {}, h('strong', {}, 'Networks: '), 'routes joined together form a network. It scores by the number of exits it joins:'),
      h('li', { class: 'plain' }, h('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': 'Points for networks by exits' }, points)),
      h('li', {}, h('strong', {}, 'Centre: '), '+1 for each centre square you fill.'),
      h('li', {}, h('strong', {}, 'Errors: '), '−1 for each route end that faces an empty square or a blank tile side. Route ends at the board\'s edge are never errors.'),
      h('li', {}, h('strong', {}, 'Longest highway and longest railway: '), '+1 for each tile on your longest highway and on your longest railway (stations and the overpass count for both).')),
    h('p', {}, 'The highest total wins; on a tie, the player with fewer errors wins.'),
    h('p', { class: 'row' }, h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'Play now'), h('a', { class: 'btn', href: '/tutorial/ink', 'data-link': '' }, 'The tutorial'))));
}

function edgeWord(edge) {
  return { highway: 'highway', railway: 'railway', blank: '—' }[edge];
}

route();
