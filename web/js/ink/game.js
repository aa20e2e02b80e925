// The Railroad Ink game screen: your board, the dice, the specials, the other boards live, and the
// score breakdown. Every rule comes from the server: which squares are legal for each tile
// and orientation, which specials may be placed, whether the round may end (and why not).

import { h, fill, isolated, nameEl, nameList } from '../core/dom.js';
import { play, reducedMotion, soundToggle } from '../core/motion.js';
import { ApiError, myName, rememberName } from '../core/request.js';
import { PlayScreen, joinForm, loadGame, chosenSeedLine, offlineLine, sendWhenOver } from '../core/screen.js';
import { capital, num, pointsText, ratingText, ratingTitle } from '../core/words.js';
import { challengeResult, friendChallengeBox, practiceOutcome } from '../challenges/result.js';
import { kindLabel } from '../challenges/words.js';
import { api, EXPANSIONS, MODES, seats } from './api.js';
import { playAgainButton } from '../core/rematch.js';
import { resignButton, resignedWords } from '../core/resign.js';
import { clockLine } from '../core/clock.js';
import { newBestNote } from '../core/bests.js';
import { expansionRow, overlaysOf, roundsWords } from './breakdown.js';
import { createBoard, tileSvg, legalSquares, networkColour, tileWords, openEnds, placementWords, sideWords, SIDES } from './draw.js';
import { turnButtons, turning } from './turns.js';
import { boardActions, inkViewer } from '../core/boardlinks.js';

/** How long the dice take to roll in, and how long each of the computer's tiles waits (ms). */
const ROLL_MS = 900;
const COMPUTER_TILE_MS = 450;

/** "Round 3 of 7" (of 6 in a game of an expansion). */
function ordinal(round, rounds = 7) {
  return `Round ${Math.min(round + 1, rounds)} of ${rounds}`;
}

/** The expansion's dice in words: "the lake dice". */
function expansionDiceWords(expansion) {
  return expansion === 'river' ? 'the river dice' : 'the lake dice';
}

/** " · River expansion" after the mode in the bar's chip (a phone leaves out "expansion"). */
function expansionChip(expansion) {
  const [first, ...rest] = (EXPANSIONS[expansion] || expansion).split(' ');
  return [` · ${first}`, rest.length ? h('span', { class: 'chip-more' }, ` ${rest.join(' ')}`) : null];
}

/** A touch screen with no hover: no keys to tell of. */
const TOUCH = () => window.matchMedia('(hover: none) and (pointer: coarse)').matches;

/** "the railway curve" (a tile in words, with its article). */
function theTile(table, tile) {
  return `the ${tileWords(table, tile)}`;
}

const SIDE_LETTER = Object.fromEntries(SIDES.map((x) => [x, sideWords(x)]));

/**
 * A refused placement in words, from the server's refusal (its `rule`, and the details in its
 * `error` sentence): which tile, where and why. Falls back to the server's own sentence.
 */
export function refusalWords(table, placement, error, rule) {
  const tile = placement.slice(0, 2);
  const square = placement.slice(2, 4);
  const what = capital(theTile(table, tile));
  const at = `${what} can't go on ${square} turned this way`;
  let m;
  switch (rule) {
    case 'occupied':
      return `${what} can't go on ${square}: there is already a tile there.`;
    case 'highway meets railway':
      m = /its (\w+) ([NESW]) edge meets the (\w+) [NESW] edge of ([A-G][0-6])/.exec(error);
      if (m) return `${at}: its ${m[1]} on the ${SIDE_LETTER[m[2]]} side would meet the ${m[3]} coming from ${m[4]}.`;
      break;
    case 'wrong exit type':
      m = /its (\w+) ([NESW]) edge runs into the (\w+) exit at ([A-G][0-6])/.exec(error);
      if (m) return `${at}: its ${m[1]} on the ${SIDE_LETTER[m[2]]} side would run into the ${m[3]} exit at ${m[4]}.`;
      break;
    case 'no valid connection':
      return `${at}: none of its routes would continue a route or meet an exit.`;
    case 'one special a round':
      return `${what} must wait: you have already placed a special this round (one a round).`;
    case 'each special once':
      return `${what} is already used: each special once a game.`;
    case 'three specials a game':
      return `${what} must wait: three specials are used (three a game).`;
    case 'only the round\'s dice':
      return `${what} is not one of this round's unused dice.`;
    case 'not a tile of this game (E2)':
      return `${what} belongs to another expansion: it is not a tile of this game.`;
    case 'mismatch (E3.1)':
      m = /its (\w+) ([NESW]) edge meets the (\w+) [NESW] edge of ([A-G][0-6])/.exec(error);
      if (m) return `${at}: its ${m[1]} on the ${SIDE_LETTER[m[2]]} side would meet the ${m[3]} of ${m[4]} (a river meets only river, a lake only lake).`;
      return `${at}: water would meet a route or other water (a river meets only river, a lake only lake).`;
    case 'water faces an exit (E3.2)':
      m = /its (\w+) ([NESW]) edge faces the (\w+) exit at ([A-G][0-6])/.exec(error);
      if (m) return `${at}: its ${m[1]} on the ${SIDE_LETTER[m[2]]} side would face the ${m[3]} exit at ${m[4]} (water may not face an exit).`;
      return `${at}: its water would face an exit (water may not face an exit).`;
    default:
      break;
  }
  return capital(error.replace(/\b([AB][0-5]|S[0-5]|V[0-3]|L[0-5])([A-G][0-6])([0-7])\b/g, (code) => placementWords(table, code)));
}

/** Why the round cannot end yet, in words (from the server's reason). */
function endReasonWords(table, reason) {
  const m = /(\S+) still fits, for example (\S{5})/.exec(reason || '');
  if (m) return `Place every die that fits first: ${theTile(table, m[1])} still fits (for example on ${m[2].slice(2, 4)}).`;
  return `Not yet: ${reason}.`;
}

export async function gameScreen(root, id, { table, navigate, setTitle }) {
  const loaded = await loadGame(root, { id, held: seats.get(id), store: seats, state: (held) => api.state(id, held?.seats[0]?.token), navigate });
  if (!loaded) return null;
  let { held, state } = loaded;
  // Players join in the lobby, before the start; whoever comes later watches.
  let late = false;
  if (!held && state.mode === 'online' && !state.finished) {
    if (!state.started && state.players.length < 8) {
      const choice = await joinPanel(root, state);
      if (choice === 'joined') held = seats.get(id);
      state = await api.state(id, held?.seats[0]?.token);
    } else if (state.started) {
      late = true;
    }
  }
  const view = new GameView(root, id, held, state, { table, navigate, setTitle });
  const stop = view.start();
  if (late) view.say('The game had started when you opened the link, so you are watching it: players join before the start.', 'info');
  return stop;
}

function joinPanel(root, state) {
  const creator = state.players[0]?.name;
  return joinForm(root, {
    title: 'Join this game of Railroad Ink',
    intro: [`${state.players.length} ${state.players.length === 1 ? 'player is' : 'players are'} waiting for the start (`, nameList(state.players.map((p) => p.name), { and: ', ' }),
      '). ', creator ? nameEl(creator) : 'The creator', ' starts the game when everyone is in. Everyone plays the same rolls on their own board; a round ends when every player has finished it.'],
    extra: [state.expansion ? h('p', {}, `Played with the ${(EXPANSIONS[state.expansion] || state.expansion).toLowerCase()}: six rounds, two optional expansion dice a round.`) : null, chosenSeedLine(state.chosen_seed, 'Dice')],
    name: myName(),
    join: async (name) => {
      const taken = await api.join(state.id, name);
      rememberName(name);
      seats.add(state.id, taken.seats, { mode: state.mode, name: name || `Player ${taken.seat + 1}` });
    },
  });
}

/** A die's face: its tile and its letter (the tutorial's round shows the same dice). */
export function dieFace(table, tile, used, attrs = {}) {
  const letter = tile[0];
  return h('div', { class: `die die-${letter}${used ? ' used' : ''}`, ...attrs },
    tileSvg(table, tile, 0, { 'aria-hidden': 'true' }),
    h('span', { class: 'die-letter', 'aria-hidden': 'true' }, letter === 'S' ? '★' : letter));
}

class GameView extends PlayScreen {
  constructor(root, id, held, state, ctx) {
    super(root, id, ctx.table, ctx);
    this.held = held;
    this.state = state;
    this.setTitle = ctx.setTitle;
    this.selected = null; // {kind: 'die'|'special', index, tile}
    this.orientation = 0;
    this.hint = null;
    this.overlays = new Set(state.finished ? overlaysOf(state.expansion).map(([k]) => k) : []);
    this.boards = new Map();
    // The other boards as drawn: a computer's new tiles are drawn one by one (see renderOthers).
    this.shown = new Map();
    this.revealTimer = null;
    // The dice roll in when a round starts (and when the page opens on an untouched roll).
    const mine = state.you ? state.players[state.you.seat] : null;
    this.rollAt = state.started && !state.finished && mine && !mine.dice_used.some(Boolean) ? Date.now() : 0;
  }

  get token() {
    return this.held?.seats[0]?.token;
  }

  /** The bar's round is the page's heading (see renderBar). */
  gameHeading() {
    return null;
  }

  get me() {
    return this.state.you ? this.state.players[this.state.you.seat] : null;
  }

  /** An online game waiting for its creator to start it. */
  get inLobby() {
    return this.state.mode === 'online' && !this.state.started;
  }

  start() {
    this.build();
    this.render();
    const stop = this.listen(api.events(this.id, this.token));
    // A game played in the page learns when the server has kept it (or refused it).
    const stopSending = sendWhenOver(this.id, this.state, () => this.refresh());
    return () => {
      stopSending();
      clearInterval(this.revealTimer);
      this.bannerSize?.disconnect();
      stop();
    };
  }

  async refresh() {
    try {
      const next = await api.state(this.id, this.token);
      if (next.version >= this.state.version) this.update(next);
    } catch (e) {
      this.say(e.message, 'error');
    }
  }

  update(next) {
    const roundChanged = next.round !== this.state.round;
    const wasFinished = this.state.finished;
    const begun = !this.state.started && next.started;
    if (next.version !== this.state.version) this.hint = this.planAfter(next);
    this.state = next;
    if (begun || (roundChanged && !next.finished)) {
      this.rollAt = Date.now();
      play('round');
    }
    if (begun) {
      this.selected = null;
      this.say(`The game has started. ${ordinal(next.round, next.rounds)}: the dice are rolled.`, 'info');
    }
    if (roundChanged) {
      this.selected = null;
      if (!next.finished) this.say(`${ordinal(next.round, next.rounds)}: the dice are rolled.`, 'info');
    }
    if (next.finished && !wasFinished) {
      play('end');
      overlaysOf(next.expansion).forEach(([k]) => this.overlays.add(k));
      this.say(`The game is over: all ${roundsWords(next.rounds)} rounds are played.`, 'info');
    }
    if (this.selected && !this.choiceFor(this.selected)?.available) this.selected = null;
    this.render();
  }

  // ---- building the page

  build() {
    const st = this.state;
    this.bar = h('div', { class: 'game-bar' });
    this.banner = h('div', { class: 'end-banner', hidden: true });
    this.message = h('div', { class: 'message', role: 'status', 'aria-live': 'polite' });
    this.board = createBoard(this.table, { label: 'Your board', interactive: !!st.you });
    this.board.svg.id = 'my-board';
    this.boardTitle = h('div', { class: 'board-title' });
    this.tray = h('aside', { class: 'tray', 'aria-label': 'Your dice and actions' });
    this.side = h('aside', { class: 'side' });
    this.others = h('div', { class: 'others' });
    this.scores = h('section', { class: 'panel scores', 'aria-label': 'Scores' });
    // Other players' boards first: on a desk they sit at the top of the side, above the scores.
    fill(this.side, this.others, this.scores);
    this.boardLinks = h('div', { class: 'board-links' });
    const main = h('div', { class: 'main-board' }, this.boardTitle, this.board.svg, this.message, this.boardLinks);
    this.layout = h('div', { class: 'game-layout' }, this.tray, main, this.side);
    // Under the board: what a finished challenge shows besides its rank (the leaderboard, the chart).
    this.after = h('div', { class: 'end-after' });
    this.game = h('section', { class: 'game', id: 'game' }, this.bar, this.banner, this.layout, this.after);
    this.lobby = h('section', { class: 'card lobby', id: 'lobby', 'aria-labelledby': 'lobby-title' });
    this.mount([this.lobby, this.game], 'drag-ghost');
  }

  wireBoard() {
    const svg = this.board.svg;
    svg.addEventListener('pointermove', (ev) => {
      if (this.dragging || !this.selected || ev.pointerType === 'touch') return;
      const sq = this.board.squareAt(ev.clientX, ev.clientY);
      this.board.setDrop(sq, this.selected.tile, this.orientation, this.legalNow().has(sq));
    });
    svg.addEventListener('pointerleave', () => {
      if (!this.dragging) this.board.setDrop(null);
    });
    svg.addEventListener('click', (ev) => {
      if (!this.selected) {
        if (this.state.you && !this.state.finished) this.say('Choose a die or a special first, then a square.', 'info');
        return;
      }
      const sq = this.board.squareAt(ev.clientX, ev.clientY);
      if (sq) this.place(sq);
    });
  }

  // ---- what the seat may do (all from the server)

  choices() {
    const you = this.state.you;
    if (!you) return [];
    const active = !this.state.finished && !you.round_done;
    const dice = you.dice.map((d) => ({
      kind: 'die', index: d.die, tile: d.tile, used: d.used, legal: d.legal, optional: !!d.optional,
      available: active && !d.used,
    }));
    const specials = you.specials.map((x, i) => ({
      kind: 'special', index: i, tile: x.tile, used: x.used, legal: x.legal,
      available: active && x.allowed, reason: x.reason,
    }));
    return [...dice, ...specials];
  }

  choiceFor(sel) {
    return this.choices().find((c) => c.kind === sel.kind && c.index === sel.index && c.tile === sel.tile);
  }

  legalNow(choice = this.selected && this.choiceFor(this.selected), orientation = this.orientation) {
    return new Set(choice ? legalSquares(choice.legal[orientation]) : []);
  }

  select(choice, { keepOrientation = false } = {}) {
    if (!choice.available) {
      const what = capital(theTile(this.table, choice.tile));
      this.say(choice.used ? `${what} is already placed.` : (choice.reason ? `${what} must wait: ${choice.reason}.` : `${what} cannot be placed now.`), 'error', null, choice.tile);
      return;
    }
    const same = this.selected && this.selected.tile === choice.tile;
    this.selected = { kind: choice.kind, index: choice.index, tile: choice.tile };
    if (!same && !keepOrientation) this.orientation = 0;
    const n = this.legalNow().size;
    const what = capital(theTile(this.table, choice.tile));
    this.say(n
      ? `${what} selected (${openEnds(this.table, choice.tile, this.orientation)}): it fits on ${n} ${n === 1 ? 'square' : 'squares'}. ${TOUCH() ? 'Tap one, or drag it there.' : 'Click one, drag it there, or use the arrow keys and Enter.'}`
      : `${what} fits nowhere turned this way: rotate or flip it${TOUCH() ? '' : ' (R, F)'}.`, 'info', null, choice.tile);
    this.render();
  }

  /** After a turn of the selected tile (R, F, the buttons): where it fits now. */
  turned() {
    if (this.selected) {
      const n = this.legalNow().size;
      const tile = this.selected.tile;
      this.say(`${capital(theTile(this.table, tile))}, ${openEnds(this.table, tile, this.orientation)}: fits on ${n || 'no'} ${n === 1 ? 'square' : 'squares'}.`, 'info', null, `${tile}, orientation ${this.orientation}`);
    }
    this.render();
  }

  key(ev) {
    if (this.inLobby || ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    const onBoard = !!ev.target?.dataset?.square && this.board.svg.contains(ev.target);
    const step = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[k];
    const playing = this.state.you && !this.state.finished;
    if (k === 'r') { this.rotate(ev.shiftKey ? 3 : 1); ev.preventDefault(); }
    else if (k === 'f') { this.flip(); ev.preventDefault(); }
    else if (step && playing && (onBoard || this.selected)) { ev.preventDefault(); this.moveCursor(step, onBoard); }
    else if ((k === 'enter' || k === ' ') && onBoard && playing) {
      ev.preventDefault();
      if (this.selected) this.place(this.board.cursor(), { byKey: true });
      else this.say('Choose a die or a special first (Tab to the dice, Enter), then a square.', 'info');
    } else if (k === 'escape') {
      const had = this.selected;
      this.selected = null;
      this.board.setDrop(null);
      this.render();
      if (had) this.say('Cancelled: no tile selected.', 'info');
    } else if (k === 'z' && this.state.you?.can_undo) { this.undo(); }
  }

  /**
   * Moves the keyboard's square on the board (it takes the focus, and shows the selected tile
   * where it would go). From outside the board the first press lands on the first legal square.
   */
  moveCursor([dr, dc], onBoard) {
    let sq = this.board.cursor() || 'D3';
    if (!onBoard) {
      const legal = [...this.legalNow()];
      if (legal.length && !this.legalNow().has(sq)) [sq] = legal;
    } else {
      const row = Math.min(6, Math.max(0, 'ABCDEFG'.indexOf(sq[0]) + dr));
      const col = Math.min(6, Math.max(0, Number(sq[1]) + dc));
      sq = `${'ABCDEFG'[row]}${col}`;
    }
    this.board.setCursor(sq, { focus: true });
    if (this.selected) {
      const legal = this.legalNow().has(sq);
      this.board.setDrop(sq, this.selected.tile, this.orientation, legal);
    }
  }

  // ---- actions

  acted() {
    // The hint's plan stays while the player follows it (see planAfter).
  }

  /**
   * What is left of the computer's plan (the hint) in the state `next`: the placements not yet
   * made. It is dropped when the round changes, the game ends, or the player departs from it (a
   * placement not in the plan, or a square of the plan taken by another tile).
   */
  planAfter(next) {
    if (!this.hint?.length || !next.you || next.finished || next.round !== this.state.round) return null;
    const chunks = (board) => (board || '').match(/.{5}/g) || [];
    const before = new Set(chunks(this.me?.board));
    const after = chunks(next.players[next.you.seat]?.board);
    if (after.some((p) => !before.has(p) && !this.hint.includes(p))) return null;
    const taken = new Set(after.map((p) => p.slice(2, 4)));
    const left = this.hint.filter((p) => !after.includes(p));
    if (left.some((p) => taken.has(p.slice(2, 4)))) return null;
    return left.length ? left : null;
  }

  async place(square, { byKey = false } = {}) {
    if (!this.selected || !this.token) return;
    const placement = `${this.selected.tile}${square}${this.orientation}`;
    const legal = this.legalNow().has(square);
    this.board.setDrop(null);
    this.pending = placement;
    this.begunRound = this.state.round;
    const floodedBefore = new Set(this.me?.flooded || []);
    const ok = await this.act('Placing', () => api.place(this.id, this.token, placement));
    this.pending = null;
    if (ok) {
      play('place');
      // A lake's placement may flood the squares it surrounds (the engine says which).
      const flooded = (this.me?.flooded || []).filter((sq) => !floodedBefore.has(sq));
      const floods = flooded.length ? ` The water floods ${flooded.join(' and ')}: ${flooded.length === 1 ? 'it is' : 'they are'} now lake, and nothing can go there.` : '';
      this.say(`Placed ${theTile(this.table, placement.slice(0, 2))} on ${square} (${openEnds(this.table, placement.slice(0, 2), Number(placement[4]))}).${floods}`, 'ok', null, placement);
      this.selected = null;
      this.render();
      if (byKey) this.focusNext();
    } else if (!legal) {
      this.board.flash(square);
    }
  }

  /** After a placement by keyboard: the next die that may be placed, else End round. */
  focusNext() {
    // The route dice first; then End round (an expansion's dice are optional: Tab reaches them).
    const next = this.tray.querySelector('.route-dice .choice-die:not(.unavailable)')
      || this.tray.querySelector('#end-round:not([disabled])')
      || this.tray.querySelector('.choice-die:not(.unavailable)')
      || this.tray.querySelector('.choice-special:not(.unavailable)');
    next?.focus();
  }

  /** A refusal in words (a placement's tile, square and reason); the server's sentence as its tooltip. */
  refusalText(e) {
    if (this.pending) return refusalWords(this.table, this.pending, e.message, e.rule);
    return capital(e.message);
  }

  async undo() {
    this.begunRound = this.state.round;
    const ok = await this.act('Undo', () => api.undo(this.id, this.token));
    if (ok) this.say('Took back your last placement.', 'ok');
  }

  async endRound() {
    const round = this.state.round;
    // An expansion's dice are optional: leaving them is no error, and the player is told so.
    const skipped = (this.state.you?.dice || []).filter((d) => d.optional && !d.used).length;
    const expansion = this.state.expansion;
    const ok = await this.act('Ending the round', () => api.endRound(this.id, this.token));
    const skipWords = ok && skipped
      ? ` You left ${skipped === 2 ? `both of ${expansionDiceWords(expansion)}` : `one of ${expansionDiceWords(expansion)}`} unused: they are optional, so that costs nothing.`
      : '';
    if (ok && this.state.round === round && !this.state.finished) {
      const waiting = this.state.players.filter((p) => !p.round_done).map((p) => p.name);
      this.say([`You have finished ${ordinal(round, this.state.rounds).toLowerCase()}.${skipWords} Waiting for `, nameList(waiting), '.'], 'info');
    } else if (ok && skipWords) {
      this.say(`Round ended.${skipWords}`, 'ok');
    }
  }

  async askHint() {
    const button = this.tray.querySelector('#hint');
    if (button) { button.disabled = true; button.textContent = 'Thinking…'; }
    this.say('The computer is thinking about your round…', 'hint');
    try {
      const { placements } = await api.hint(this.id, this.token);
      this.hint = placements;
      this.board.setHint(placements);
      this.say(placements.length
        ? `The computer suggests: ${placements.map((p, i) => `${i + 1}. ${placementWords(this.table, p)}`).join('; ')}.`
        : 'The computer has nothing to suggest: end the round.', 'hint');
    } catch (e) {
      this.say(e.message, 'error');
    } finally {
      this.render();
    }
  }

  // ---- dragging (pointer events: mouse, pen and touch alike)

  pointerDown(ev, choice) {
    if (ev.button !== 0 && ev.pointerType === 'mouse') return;
    ev.preventDefault();
    this.trackDrag(ev, {
      begin: () => {
        if (!choice.available) return false;
        const sameTile = this.selected?.tile === choice.tile;
        this.selected = { kind: choice.kind, index: choice.index, tile: choice.tile };
        if (!sameTile) this.orientation = 0;
        this.render();
        this.showGhost(tileSvg(this.table, this.selected.tile, this.orientation), 700 + 92);
        return true;
      },
      over: (sq) => this.board.setDrop(sq, choice.tile, this.orientation, this.legalNow().has(sq)),
      drop: (sq) => (sq ? this.place(sq) : this.render()),
      click: () => this.select(choice),
    });
  }

  // ---- rendering

  render() {
    const st = this.state;
    this.lobby.hidden = !this.inLobby;
    this.game.hidden = this.inLobby;
    if (this.inLobby) {
      this.setTitle('Lobby');
      this.renderLobby();
      return;
    }
    if (this.lobby.firstChild) fill(this.lobby);
    this.setTitle(st.finished ? 'Game over' : ordinal(st.round, st.rounds));
    this.renderBar();
    this.renderBanner();
    this.renderTray();
    const me = this.me;
    const mine = me || st.players[0];
    // This round's tiles are marked (Undo takes back the last of them).
    const recent = me && !st.finished ? st.you.dice.filter((d) => d.used).length + (me.special_this_round ? 1 : 0) : 0;
    this.board.setBoard(mine.board, { recent, flooded: mine.flooded || [] });
    fill(this.boardLinks, boardActions(inkViewer(mine.board, st.expansion), mine.board));
    this.board.setBreakdown(mine.breakdown);
    this.board.setHint(this.hint);
    this.board.setLegal(this.selected ? [...this.legalNow()] : [], this.selected ? tileWords(this.table, this.selected.tile) : '');
    fill(this.boardTitle,
      h('span', { class: 'board-name' }, me ? [nameEl(me.name), ' (you)'] : nameEl(mine.name),
        resignedWords(this.state, mine.seat) ? h('span', { class: 'chip' }, resignedWords(this.state, mine.seat)) : null),
      h('span', { class: 'board-score' }, pointsText(mine.score.advanced)));
    // On a phone the selected tile's turns sit right above the board, where the thumb is.
    const turns = this.tray.querySelector('.preview-buttons');
    if (turns && window.matchMedia('(max-width: 860px)').matches) {
      const focused = turns.contains(document.activeElement) ? document.activeElement.id : null;
      this.boardTitle.append(turns);
      if (focused) turns.querySelector(`#${focused}`)?.focus({ preventScroll: true });
    }
    this.renderScores();
    this.renderOthers();
    for (const svg of [this.board.svg, ...[...this.boards.values()].map((b) => b.svg)]) {
      for (const [k] of overlaysOf(st.expansion)) svg.classList.toggle(`show-${k}`, this.overlays.has(k));
    }
    this.root.classList.toggle('spectator', !st.you);
    // The layout knows when there are other boards (beside yours on a desk) and when the game is over.
    this.layout.classList.toggle('with-others', st.players.length > 1);
    this.game.classList.toggle('finished', !!st.finished);
    // The end banner's height, so the board below it keeps row G on the screen (see app.css),
    // followed as what it shows arrives (a challenge's rank, a practice's).
    if (st.finished && !this.bannerSize) {
      this.bannerSize = new ResizeObserver(() => this.game.style.setProperty('--banner', `${Math.round(this.banner.offsetHeight)}px`));
      this.bannerSize.observe(this.banner);
    }
  }

  /**
   * The lobby: the invite link, who has joined (live), and for the creator the button that
   * starts the game; the others wait for it.
   */
  renderLobby() {
    const st = this.state;
    const you = st.you;
    const creator = st.players[0];
    const mine = you && you.seat === 0;
    const n = st.players.length;
    const focused = document.activeElement?.id;
    // One live region for the whole lobby, so that a screen reader hears each arrival.
    this.lobbyCount ??= h('p', { class: 'muted', id: 'lobby-count', role: 'status' });
    const count = `${n} ${n === 1 ? 'player has' : 'players have'} joined.`;
    if (this.lobbyCount.textContent !== count) this.lobbyCount.textContent = count;
    const list = h('ul', { class: 'lobby-players', id: 'lobby-players' }, st.players.map((p) => h('li', { dataset: { seat: p.seat } },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', {}, nameEl(p.name), you && p.seat === you.seat ? ' (you)' : ''),
      st.ratings?.[p.seat] ? h('span', { class: 'chip rating-chip', title: ratingTitle(st.ratings[p.seat]) }, ratingText(st.ratings[p.seat])) : null,
      p.seat === 0 ? h('span', { class: 'chip' }, 'made the game') : null)));
    const action = mine
      ? h('div', { class: 'lobby-start' },
        h('button', { class: 'btn primary big', id: 'start-game', type: 'button', onclick: () => this.startGame() }, 'Start the game'),
        h('p', { class: 'muted small' }, n === 1
          ? 'Nobody has joined yet: wait for your friends, or start alone. Once it starts, nobody else can join; whoever opens the link later watches.'
          : 'Start when everyone is in. Once it starts, nobody else can join; whoever opens the link later watches.'))
      : h('p', { class: 'lobby-wait', id: 'lobby-wait' }, you ? 'You are in. ' : 'You are watching. ', 'Waiting for ', nameEl(creator.name), ' to start the game.');
    fill(this.lobby,
      h('h1', { id: 'lobby-title' }, 'Lobby: Railroad Ink online'),
      h('p', {}, mine
        ? 'Send this link to your friends. Everyone who opens it before you start can join.'
        : 'Everyone plays the same rolls on their own board; a round ends when every player has finished it.'),
      this.inviteBox(`/ink/${this.id}`, 'Invite link:'),
      st.expansion ? h('p', { id: 'lobby-expansion' }, `Played with the ${(EXPANSIONS[st.expansion] || st.expansion).toLowerCase()}: six rounds, and ${expansionDiceWords(st.expansion).replace('the ', 'two optional ')} a round beside the four route dice.`) : null,
      chosenSeedLine(st.chosen_seed, 'Dice'),
      h('h2', {}, 'Players'),
      this.lobbyCount,
      list,
      action,
      this.lobbyError ? h('p', { class: 'form-error', role: 'alert' }, this.lobbyError) : null);
    if (focused === 'start-game') this.lobby.querySelector('#start-game')?.focus();
  }

  async startGame() {
    const button = this.lobby.querySelector('#start-game');
    if (button) button.disabled = true;
    this.lobbyError = null;
    try {
      this.update(await api.start(this.id, this.token));
      // The keyboard goes on where the game does: the first die.
      this.tray.querySelector('.choice-die:not(.unavailable)')?.focus({ preventScroll: true });
    } catch (e) {
      this.lobbyError = e instanceof ApiError && e.status === 409 ? capital(e.message) : `Starting failed: ${e.message}`;
      this.refresh();
      this.render();
    }
  }

  renderBar() {
    const st = this.state;
    const rounds = st.rounds || 7;
    const pips = h('ol', { class: 'round-pips', 'aria-label': st.finished ? `All ${rounds} rounds played` : ordinal(st.round, rounds) },
      Array.from({ length: rounds }, (_, i) => h('li', { class: i < st.round ? 'done' : i === st.round ? 'now' : '' }, String(i + 1))));
    const modeText = st.mode === 'challenge'
      ? kindLabel(st.challenge)
      : st.practice ? `Practice: ${kindLabel(st.practice_of).toLowerCase()}`
        : MODES[st.mode] || st.mode;
    const status = st.players.length > 1 && !st.finished
      ? h('ul', { class: 'player-status' }, st.players.map((p) => h('li', { class: `${p.round_done ? 'done' : 'playing'}${st.you && p.seat === st.you.seat ? ' you' : ''}` },
        h('span', { class: 'dot' }), nameEl(p.name), st.you && p.seat === st.you.seat ? ' (you)' : '',
        h('small', {}, this.placing(p) ? ' placing its tiles' : p.round_done ? ' finished the round' : ' playing'))))
      : null;
    // The page's heading: the game and where it stands (the game's name is for screen readers:
    // the bar says it in its chip and the header).
    fill(this.bar,
      h('div', { class: 'bar-title' },
        h('h1', { class: 'bar-heading', id: 'game-heading' }, h('span', { class: 'visually-hidden' }, 'Railroad Ink: '), st.finished ? 'Final scores' : ordinal(st.round, rounds)),
        h('span', { class: 'mode-chip' }, modeText, st.expansion ? expansionChip(st.expansion) : null)),
      pips,
      status,
      clockLine(st, st.you?.seat),
      st.offline ? offlineLine(st) : null,
      st.mode === 'online' && !st.finished ? this.watchBox() : null);
  }

  /**
   * The link to watch this game: in the bar on a desk; on a phone folded into one small
   * "Link to watch" beside the rounds, so the board stays on the first screen.
   */
  watchBox() {
    const phone = window.matchMedia('(max-width: 560px)').matches;
    const box = this.inviteBox(`/ink/${this.id}`, phone ? '' : 'Link to watch:');
    if (!phone) return box;
    const details = h('details', { class: 'watch-box', id: 'watch-box', open: this.watchOpen, ontoggle: () => { this.watchOpen = details.open; } },
      h('summary', {}, 'Link to watch'), box);
    return details;
  }

  renderBanner() {
    const st = this.state;
    this.banner.hidden = !st.finished;
    if (!st.finished) return;
    const ranked = [...st.players].sort((a, b) => b.score.advanced - a.score.advanced || a.score.errors - b.score.errors);
    const winners = st.winners.map((i) => st.players[i]);
    let headline;
    let detail = '';
    if (st.players.length === 1) {
      const solo = st.players[0];
      headline = [st.you ? 'You' : nameEl(solo.name), ` scored ${pointsText(solo.score.advanced)}`];
    } else if (winners.length === 1) {
      const w = winners[0];
      const mine = st.you && w.seat === st.you.seat;
      headline = [nameEl(w.name), `${mine ? ' (you)' : ''} ${mine ? 'win' : 'wins'} with ${pointsText(w.score.advanced)}`];
      const tied = st.players.filter((p) => p !== w && p.score.advanced === w.score.advanced);
      if (tied.length) {
        detail = [`Tie on ${pointsText(w.score.advanced)}, broken by fewest errors: `, nameEl(w.name), ` made ${w.score.errors}, `,
          tied.map((p, i) => [i ? ', ' : '', nameEl(p.name), ` ${p.score.errors}`]), '.'];
      }
    } else {
      headline = [nameList(winners.map((w) => w.name)), ` share the win with ${pointsText(winners[0].score.advanced)}`];
      detail = `Same score and the same number of errors (${winners[0].score.errors}): the tie stands.`;
    }
    const challenge = st.mode === 'challenge' ? st.challenge : null;
    // A challenge's result (rank, leaderboard, chart) is loaded once and kept across renders.
    if (challenge && !this.result) this.result = challengeResult(challenge, { game: 'ink' });
    const practised = st.practice ? st.practice_of : null;
    // A practice game's, the same way: where it would have ranked under the headline, the chart under the board.
    if (practised && !this.result) this.result = practiceOutcome(practised, st.players[0].score.advanced, { game: 'ink' });
    // Any finished game you played can become a friend challenge, except a periodic challenge's
    // (its dice stay secret until it closes).
    // A game played in the page has what the server keeps once the server has it, under its id.
    const kept = st.offline ? st.offline.sent : this.id;
    const friendly = st.you && kept && (!challenge || challenge.startsWith('friend'));
    const keptToken = st.offline ? seats.get(kept)?.seats[0]?.token : this.token;
    if (friendly && !this.friendBox) this.friendBox = friendChallengeBox(kept, (path, label) => this.inviteBox(path, label), keptToken, { rolls: st.expansion ? `six rolls of the ${st.expansion} expansion` : 'seven rolls' });
    if (st.you && !st.offline && !this.bestNote) this.bestNote = newBestNote(this.id);
    fill(this.banner,
      h('div', {},
        h('h2', { id: 'winner' }, headline),
        challenge || practised ? this.result.summary : null,
        st.you ? this.bestNote : null,
        detail ? h('p', { class: 'tie-break' }, detail) : null,
        st.players.length > 1 ? h('ol', { class: 'ranking' }, ranked.map((p) => h('li', {}, nameEl(p.name), `: ${pointsText(p.score.advanced)}, ${p.score.errors} ${p.score.errors === 1 ? 'error' : 'errors'}`))) : null,
        st.seed !== undefined && !challenge ? h('p', { class: 'muted small' }, `Dice seed ${st.seed}: start a game with this seed to play the same rolls.`) : null),
      h('div', { class: 'row' },
        challenge ? h('a', { class: 'btn primary', id: 'leaderboard-link', href: `/challenges/${challenge}`, 'data-link': '' }, 'Leaderboard') : null,
        st.you ? playAgainButton(st, () => this.playAgain(), this.navigate) : null,
        h('button', { class: `btn${challenge || st.you ? '' : ' primary'}`, onclick: () => this.navigate('/') }, 'New game'),
        kept ? h('a', { class: 'btn', id: 'replay-link', href: `/ink/${kept}/replay`, 'data-link': '' }, 'Replay') : null,
        kept ? h('a', { class: 'btn', id: 'review-link', href: `/ink/${kept}/review?seat=${st.you ? st.you.seat : 0}`, 'data-link': '', title: 'Round by round, what the computer would have played' }, 'Review') : null,
        h('a', { class: 'btn', href: '/rules', 'data-link': '' }, 'Rules')),
      friendly ? this.friendBox : null);
    fill(this.after, challenge || practised ? this.result.card : null);
  }

  /**
   * Plays this finished game again: makes the rematch, or joins the one another seat made
   * (under this seat's name); keeps the new seat and gives the new game's path.
   */
  async playAgain() {
    const st = this.state;
    const name = st.players[st.you.seat]?.name;
    let made = await api.rematch(this.id, this.token);
    if (!made.seats) made = await api.join(made.id, name);
    const mode = { online: 'online', computer: 'computer' }[st.mode] || 'solo';
    seats.add(made.id, made.seats, { mode, name });
    return `/ink/${made.id}`;
  }

  renderTray() {
    const st = this.state;
    const you = st.you;
    if (!you) {
      fill(this.tray,
        h('section', { class: 'panel' },
          h('h2', {}, st.finished ? 'Game over' : 'This round\'s dice'),
          st.finished ? null : h('div', { class: 'dice-row' }, st.dice.map((t, i) => dieFace(this.table, t, false, { role: 'img', 'aria-label': `${tileWords(this.table, t)}${(st.optional_dice || []).includes(i) ? ' (optional)' : ''}` }))),
          h('p', { class: 'muted' }, 'You are watching this game.')));
      return;
    }
    if (st.finished) {
      fill(this.tray, h('section', { class: 'panel' },
        h('h2', {}, 'Game over'),
        h('p', {}, `All ${roundsWords(st.rounds)} rounds are played. The boards show how every point was scored.`),
        this.overlayToggles()));
      return;
    }
    const choices = this.choices();
    const dice = choices.filter((c) => c.kind === 'die');
    const routeDice = dice.filter((c) => !c.optional);
    const extraDice = dice.filter((c) => c.optional);
    const specials = choices.filter((c) => c.kind === 'special');
    const isSel = (c) => this.selected && this.selected.kind === c.kind && this.selected.index === c.index;
    const button = (c, label) => {
      const b = h('button', {
        class: `choice choice-${c.kind}${isSel(c) ? ' selected' : ''}${c.available ? '' : ' unavailable'}${c.used ? ' used' : ''}`,
        type: 'button',
        'aria-pressed': isSel(c) ? 'true' : 'false',
        'aria-label': label,
        title: c.available ? `${c.tile}, ${tileWords(this.table, c.tile)}: click to select, or drag onto the board` : (c.used ? `${c.tile}: placed` : c.reason || ''),
        dataset: { tile: c.tile, kind: c.kind, index: c.index },
      }, dieFace(this.table, c.tile, c.used || !c.available), c.used ? h('span', { class: 'check', 'aria-hidden': 'true' }, '✓') : null);
      b.addEventListener('pointerdown', (ev) => this.pointerDown(ev, c));
      b.addEventListener('keydown', (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); this.select(c); } });
      return b;
    };
    const sel = this.selected && this.choiceFor(this.selected);
    const preview = sel
      ? h('div', { class: 'preview' },
        h('div', { class: 'preview-tile', title: `Drag onto the board (${sel.tile}, orientation ${this.orientation})` }, tileSvg(this.table, sel.tile, this.orientation)),
        h('div', { class: 'preview-info' },
          h('strong', {}, capital(tileWords(this.table, sel.tile))),
          h('span', { class: 'muted small', id: 'preview-ends', title: `${sel.tile}, orientation ${this.orientation}` },
            `${capital(openEnds(this.table, sel.tile, this.orientation))} · fits on ${this.legalNow().size} ${this.legalNow().size === 1 ? 'square' : 'squares'}`)),
        turnButtons(this))
      : h('div', { class: 'preview empty' }, h('p', { class: 'muted small' }, you.round_done
        ? 'You have finished this round.'
        : ['Select a die or a special, or drag it onto the board. ', h('span', { class: 'keys-help' }, 'Keys: Tab to a die, Enter, arrows to a square, Enter; R rotates, F flips, Esc cancels.')]));
    if (sel) preview.dataset.orientation = this.orientation;
    if (sel) {
      const tileEl = preview.querySelector('.preview-tile');
      tileEl.addEventListener('pointerdown', (ev) => this.pointerDown(ev, sel));
    }
    const me = this.me;
    const usedSpecials = me.specials.length;
    const endReason = !you.end_round.allowed && !you.round_done ? you.end_round.reason : null;
    // End round says what it leaves (on a line of its own where the button is narrow).
    const endLabel = you.round_done ? 'Round finished'
      : extraDice.some((c) => !c.used) && you.end_round.allowed
        ? ['End round', h('span', { class: 'end-skip' }, ` (skip ${expansionDiceWords(st.expansion).replace('the ', '')})`)]
        : 'End round';
    // Why the round cannot end is said once the player has begun it: a round opens calmly.
    const begun = dice.some((c) => c.used) || me.special_this_round || this.begunRound === st.round;
    // The tray is drawn anew: the keyboard's focus stays on the same control.
    const active = document.activeElement;
    const focusKey = active && this.tray.contains(active)
      ? (active.id ? `#${active.id}` : active.dataset.kind ? `.choice[data-kind="${active.dataset.kind}"][data-index="${active.dataset.index}"]` : null)
      : null;
    fill(this.tray,
      h('section', { class: `panel dice-panel${extraDice.length ? ' with-expansion' : ''}` },
        h('h2', { title: `Roll ${st.roll}` }, 'Dice'),
        h('div', { class: `dice-row route-dice${this.rolling() ? ' rolling' : ''}` }, routeDice.map((c) => button(c, `Die ${c.index < 3 ? 'A' : 'B'}: ${tileWords(this.table, c.tile)}${c.used ? ', placed' : ''}`))),
        extraDice.length ? [
          h('div', { class: 'expansion-dice-head' },
            h('h3', { id: 'expansion-dice-title' }, st.expansion === 'river' ? 'River dice' : 'Lake dice'),
            h('span', { class: 'optional-chip' }, 'optional')),
          h('div', { class: `dice-row expansion-dice${this.rolling() ? ' rolling' : ''}`, role: 'group', 'aria-labelledby': 'expansion-dice-title' },
            extraDice.map((c) => button(c, `${st.expansion === 'river' ? 'River' : 'Lake'} die (optional): ${tileWords(this.table, c.tile)}${c.used ? ', placed' : ''}`))),
          h('p', { class: 'expansion-note muted small', id: 'expansion-note' }, extraDice.every((c) => c.used)
            ? 'Both of this round\'s expansion dice are placed.'
            : 'Place them if they help, or skip them: End round leaves them unused, at no cost.'),
        ] : null),
      preview,
      h('section', { class: 'panel actions' },
        h('div', { class: 'row' },
          h('button', { class: 'btn', id: 'undo', type: 'button', disabled: !you.can_undo, title: 'Take back your last placement this round (Z)', onclick: () => this.undo() }, '↶ Undo'),
          // A hint is the server's computer: none in a challenge, nor in a game played offline.
          st.mode === 'challenge' || st.offline ? null : h('button', { class: 'btn', id: 'hint', type: 'button', disabled: you.round_done, title: 'What would the computer do?', onclick: () => this.askHint() }, 'Hint'),
          h('button', { class: 'btn primary', id: 'end-round', type: 'button', disabled: !you.end_round.allowed, title: endReason ? endReasonWords(this.table, endReason) : null, onclick: () => this.endRound() }, endLabel)),
        endReason && begun ? h('p', { class: 'end-reason small', id: 'end-reason', title: endReason }, endReasonWords(this.table, endReason)) : null,
        resignButton('ink', this.id, st, you.seat, this.token, (next) => { if (next.version >= this.state.version) this.update(next); })),
      h('section', { class: 'panel specials-panel' },
        h('h2', {}, 'Specials', h('span', { class: 'limits', id: 'special-limits' },
          h('span', {}, `${usedSpecials} of ${this.table.specials_per_game} used`), h('span', { class: 'sep' }, ' · '), h('span', {}, `${this.table.specials_per_round} a round`))),
        h('div', { class: 'specials-row' }, specials.map((c) => button(c, `Special: ${tileWords(this.table, c.tile)}${c.used ? ', used' : c.available ? '' : ', not now'}`))),
        h('p', { class: 'muted small' }, me.special_this_round
          ? 'You have placed this round\'s special.'
          : usedSpecials >= this.table.specials_per_game
            ? 'All three specials of the game are used.'
            : 'Each special once a game; at most one a round and three a game.')));
    if (focusKey && !this.tray.contains(document.activeElement)) this.tray.querySelector(focusKey)?.focus({ preventScroll: true });
    // The dice come to rest: the class goes once the last die has landed.
    for (const rolling of this.tray.querySelectorAll('.dice-row.rolling')) {
      setTimeout(() => rolling.classList.remove('rolling'), ROLL_MS - (Date.now() - this.rollAt) + 50);
    }
  }

  /** Whether the dice are rolling in now (never under reduced motion). */
  rolling() {
    return !reducedMotion() && Date.now() - this.rollAt < ROLL_MS;
  }

  /**
   * The board of another seat as it is to be drawn now: a computer's new tiles appear one at a
   * time (unless the system asks for reduced motion), anyone else's at once.
   */
  shownBoard(p) {
    const shown = this.shown.get(p.seat);
    if (!this.placing(p)) {
      this.shown.set(p.seat, p.board);
      return p.board;
    }
    if (!this.revealTimer) {
      this.revealTimer = setInterval(() => {
        let more = false;
        for (const q of this.state.players) {
          const now = this.shown.get(q.seat);
          if (now !== undefined && now !== q.board && q.board.startsWith(now)) {
            this.shown.set(q.seat, q.board.slice(0, now.length + 5));
            more = more || now.length + 5 < q.board.length;
          }
        }
        if (!more) {
          clearInterval(this.revealTimer);
          this.revealTimer = null;
        }
        if (!this.inLobby) {
          this.renderBar();
          this.renderOthers();
        }
      }, COMPUTER_TILE_MS);
    }
    return shown;
  }

  /** Whether a computer's new tiles are still being drawn one by one on its board. */
  placing(p) {
    const shown = this.shown.get(p.seat);
    return p.kind === 'computer' && shown !== undefined && shown !== p.board
      && p.board.startsWith(shown) && !reducedMotion();
  }

  overlayToggles() {
    return h('fieldset', { class: 'overlays' },
      h('legend', {}, 'Show on the boards'),
      overlaysOf(this.state.expansion).map(([key, label]) => {
        const input = h('input', { type: 'checkbox', id: `show-${key}`, checked: this.overlays.has(key) });
        input.addEventListener('change', () => {
          if (input.checked) this.overlays.add(key); else this.overlays.delete(key);
          this.render();
        });
        return h('label', { class: `toggle toggle-${key}` }, input, label);
      }));
  }

  breakdownTable(p) {
    const b = p.breakdown;
    const sc = p.score;
    const networks = b.networks.filter((n) => n.exits.length > 1);
    const single = b.networks.filter((n) => n.exits.length === 1).length;
    return h('table', { class: 'breakdown' },
      h('tbody', {},
        h('tr', {}, h('th', {}, 'Exits'), h('td', {}, sc.exits)),
        networks.map((n) => h('tr', { class: 'network-row' },
          h('th', {}, h('span', { class: 'swatch', dataset: { colour: b.networks.indexOf(n) } }), `${n.exits.length} ${n.exits.length === 1 ? 'exit' : 'exits'}: ${n.exits.map((e) => e.square).join(' ')}`),
          h('td', {}, n.points))),
        single ? h('tr', { class: 'network-row' }, h('th', {}, `${single} ${single === 1 ? 'network' : 'networks'} with one exit`), h('td', {}, 0)) : null,
        h('tr', {}, h('th', {}, 'Centre squares'), h('td', {}, sc.centre)),
        h('tr', {}, h('th', {}, 'Errors'), h('td', { class: sc.errors ? 'neg' : '' }, sc.errors ? `−${sc.errors}` : '0')),
        h('tr', { class: 'subtotal' }, h('th', {}, 'Basic score'), h('td', {}, num(sc.basic))),
        h('tr', {}, h('th', {}, 'Longest highway'), h('td', {}, sc.longest_highway)),
        h('tr', {}, h('th', {}, 'Longest railway'), h('td', {}, sc.longest_railway)),
        expansionRow(this.state.expansion, b, sc),
        h('tr', { class: 'total' }, h('th', {}, 'Total'), h('td', {}, num(sc.advanced)))));
  }

  renderScores() {
    const st = this.state;
    const me = this.me || st.players[0];
    const others = st.players.filter((p) => p !== me);
    const swatches = (root) => root.querySelectorAll('.swatch').forEach((el) => { el.style.background = networkColour(Number(el.dataset.colour)); });
    const content = h('div', {},
      h('h2', {}, st.finished ? 'Score breakdown' : 'Score so far'),
      h('details', { class: 'breakdown-details', open: true },
        h('summary', {}, nameEl(me.name), `: ${pointsText(me.score.advanced)}`),
        this.breakdownTable(me)),
      others.map((p) => h('details', { class: 'breakdown-details', open: st.finished },
        h('summary', {}, nameEl(p.name), `: ${pointsText(p.score.advanced)}`),
        this.breakdownTable(p))),
      st.finished && st.you ? null : this.overlayToggles(),
      h('div', { class: 'sound-row' }, this.soundButton ??= soundToggle()));
    swatches(content);
    fill(this.scores, content);
  }

  renderOthers() {
    const st = this.state;
    const me = this.me || st.players[0];
    const others = st.players.filter((p) => p !== me);
    const seen = new Set();
    const cards = others.map((p) => {
      seen.add(p.seat);
      let b = this.boards.get(p.seat);
      if (!b) {
        b = createBoard(this.table, { label: `${isolated(p.name)}'s board` });
        b.svg.classList.add('mini');
        b.svg.id = `board-${p.seat}`;
        this.boards.set(p.seat, b);
      }
      const shown = this.shownBoard(p);
      const placing = shown !== p.board;
      b.setBoard(shown, { flooded: placing ? [] : p.flooded || [] });
      // The breakdown is the whole board's: drawn once every tile is.
      if (!placing) b.setBreakdown(p.breakdown);
      const status = placing ? 'placing its tiles…' : st.finished ? '' : p.round_done ? 'finished the round' : 'playing';
      return h('section', { class: 'panel other', dataset: { seat: p.seat } },
        h('div', { class: 'board-title' },
          h('span', { class: 'board-name' }, nameEl(p.name), p.kind === 'computer' ? h('span', { class: 'chip' }, 'computer') : null,
            resignedWords(st, p.seat) ? h('span', { class: 'chip' }, resignedWords(st, p.seat)) : null),
          h('span', { class: 'board-score' }, pointsText(p.score.advanced))),
        b.svg,
        status ? h('p', { class: `muted small status-${placing ? 'placing' : p.round_done ? 'done' : 'playing'}` }, status) : null,
        placing ? null : boardActions(inkViewer(p.board, st.expansion), p.board));
    });
    for (const seat of [...this.boards.keys()]) if (!seen.has(seat)) this.boards.delete(seat);
    fill(this.others, cards);
  }
}

Object.assign(GameView.prototype, turning);
