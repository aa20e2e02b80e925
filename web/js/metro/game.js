// The Metro game screen: the 8×8 board with its stations coloured by owner, the hand and the
// tile to place, every player's score and hand (one's own face up, the others' face down),
// the deck, whose turn it is, the moves as they happen, and every line at the end.
//
// Every rule comes from the server: where the tile to place is legal, whether the seat may
// draw or keep (and why not), and each line with its length and points. A device may hold
// several seats of a game (hot-seat): a seat's tiles are shown only on its own turn, after
// "pass the device" asks for the right person.

import { h, fill, isolated, nameEl, nameList } from '../core/dom.js';
import { play, reducedMotion, soundToggle } from '../core/motion.js';
import { PlayScreen, joinForm, loadGame, notFound, chosenSeedLine, offlineLine, sendWhenOver, unreachable } from '../core/screen.js';
import { pointsText, ratingText, ratingTitle } from '../core/words.js';
import { myName, rememberName } from '../core/request.js';
import { challengeResult, practiceResult } from '../challenges/result.js';
import { playAgainButton } from '../core/rematch.js';
import { resignButton, resignedWords } from '../core/resign.js';
import { clockLine } from '../core/clock.js';
import { newBestNote } from '../core/bests.js';
import { kindLabel } from '../challenges/words.js';
import { LEVELS, levelLabel, metroApi, metroSeats } from './api.js';
import {
  createMetroBoard, describeLine, placements, seatColour, squaresOf, tileBackSvg, tileMention, tileSvg,
} from './draw.js';
import { tileName } from './names.js';
import { boardActions, metroViewer } from '../core/boardlinks.js';

/** How long a computer's move stays alone on the board before the next is shown (ms). */
const PACE_MS = 700;

function setTitle(text) {
  document.title = text ? `${text} · Metro · tracklayer` : 'Metro · tracklayer';
}

/** A square for people: "row 2, column 5". */
function squareText(sq) {
  return `row ${sq[0]}, column ${sq[1]}`;
}

/**
 * A refused Metro move in plain words, from the server's refusal (its `rule`, and the details
 * in its sentence): which tile (`tile`: its name, with its picture, to open the sentence), where
 * and why. Other refusals say the server's sentence. Returns parts for h or fill.
 */
export function metroRefusalWords(error, rule, tile, square) {
  const where = square ? squareText(square) : 'there';
  const what = tile ? ['The tile ', tile] : 'The tile';
  const said = (...rest) => [what, ...rest];
  switch (rule) {
    case 'centre square':
      return said(` can't go on ${where}: the four middle squares are the central stations, and no tile ever goes there.`);
    case 'occupied':
      return said(` can't go on ${where}: a tile is already there.`);
    case 'not touching':
      return said(` can't go on ${where}: a tile goes on the edge of the board or next to a tile already there.`);
    case 'avoidable station link': {
      const m = /such as \((\d),\s*(\d)\)/.exec(error);
      return said(` can't go on ${where}: one of its tracks would run from a station straight back to a station in this one tile, and the tile fits elsewhere without doing that${m ? ` (for example on ${squareText(`${m[1]}${m[2]}`)})` : ''}.`);
    }
    default:
      return `${error.charAt(0).toUpperCase()}${error.slice(1)}.`.replace(/\.\.$/, '.');
  }
}

export async function metroScreen(root, id, { navigate, held: given = null, lesson = null }) {
  fill(root, h('p', { class: 'loading' }, 'Loading the game…'));
  // The game is asked for at once, beside the table (not after it: one round trip less).
  const first = given || metroSeats.get(id);
  const ask = (held) => metroApi.state(id, held?.seats[0]?.token);
  const asked = ask(first);
  asked.catch(() => { /* said by loadGame */ });
  let table;
  try {
    table = await metroApi.tiles();
  } catch (e) {
    return unreachable(root, e);
  }
  const loaded = await loadGame(root, {
    id, held: first, store: metroSeats, state: (held) => (held === first ? asked : ask(held)), navigate,
  });
  if (!loaded) return null;
  const { state } = loaded;
  let { held } = loaded;
  if (!held && !lesson && state.open_seats.length && !state.finished) {
    const choice = await joinPanel(root, state);
    if (choice === 'joined') held = metroSeats.get(id);
  }
  // The state just read (as the first seat held sees it, which is how the game reads it until a
  // seat of a shared device shows its tiles) is the one the game shows first, unless a seat was
  // joined since.
  const shown = held === loaded.held ? state : null;
  const game = new MetroGame(root, id, held, table, { navigate, lesson, shown });
  return game.start();
}

function swatch(seat) {
  const el = h('span', { class: 'm-swatch', 'aria-hidden': 'true' });
  el.style.background = seatColour(seat);
  return el;
}

function joinPanel(root, state) {
  const open = state.open_seats;
  let seat = open[0];
  const choices = h('fieldset', { class: 'm-join-seats' }, h('legend', {}, open.length > 1 ? 'Choose your seat' : 'Your seat'),
    open.map((k) => h('label', { class: 'm-join-seat' },
      h('input', { type: 'radio', name: 'seat', value: k, checked: k === seat, onchange: () => { seat = k; } }),
      swatch(k), h('span', {}, nameEl(state.players[k].name), `'s seat (player ${k + 1} of ${state.players.length})`))));
  const taken = state.players.filter((p) => !p.open).map((p) => [nameEl(p.name), p.kind === 'computer' ? ' (computer)' : '']);
  return joinForm(root, {
    title: 'Join this game of Metro',
    intro: [`${state.players.length} players on one board: `, taken.map((t, i) => [i ? ', ' : '', t]), taken.length ? ', and ' : '',
      `${open.length} open ${open.length === 1 ? 'seat' : 'seats'} for invited people. Lay tiles in turn to link your stations; the longest lines score, double into the central station.`],
    extra: [chosenSeedLine(state.chosen_seed, 'Tiles'), choices],
    name: myName(),
    className: 'm-join',
    join: async (name) => {
      const answer = await metroApi.join(state.id, { name, seat });
      rememberName(name);
      metroSeats.add(state.id, answer.seats);
    },
  });
}

/** Words for the turn of a seat that holds the view. */
function turnHelp(st, you) {
  if (!you.your_turn) {
    return you.hand
      ? 'On your turn you may place the tile in your hand, or draw a new tile and place that one.'
      : 'Your tiles show here on your turn.';
  }
  switch (st.phase) {
    case 'start':
      if (!you.hand) return 'Draw a tile to start your turn.';
      return you.draw.allowed
        ? 'Place the tile in your hand, or draw a new tile and place that one (yours stays in hand).'
        : 'The deck is empty: place the tile in your hand.';
    case 'drawn':
      return you.keep.allowed
        ? 'Place the tile you drew, or keep it in hand and draw another, which must then be placed.'
        : 'The deck is empty: place the tile you drew.';
    case 'must_place':
      return you.hand
        ? 'Place the tile you just drew. The tile in your hand stays there.'
        : 'Place the tile you just drew.';
    default:
      return '';
  }
}

/** The moves grouped by turn, in words: [{seat, text}] (text: parts for h), latest last. */
function turnsInWords(st, table) {
  const turns = [];
  let current = null;
  for (const m of st.moves) {
    if (!current || current.seat !== m.seat || current.done) {
      current = { seat: m.seat, parts: [], done: false };
      turns.push(current);
    }
    if (m.action === 'draw') current.parts.push(current.parts.includes('kept it') ? 'drew another' : 'drew a tile');
    else if (m.action === 'keep') current.parts.push('kept it');
    else if (m.action === 'place') {
      current.parts.push(['placed ', tileMention(table, m.tile), ` on ${squareText(m.square)}`]);
      current.done = true;
    } else if (m.action === 'pass') {
      current.parts.push('passed (nothing left to play)');
      current.done = true;
    }
  }
  return turns.map((t) => ({ seat: t.seat, text: t.parts.flatMap((part, i) => (i ? [', ', part] : [part])) }));
}

class MetroGame extends PlayScreen {
  constructor(root, id, held, table, ctx) {
    super(root, id, table, ctx);
    // A tutorial's lesson beside the game: told of each state and of each refusal.
    this.lesson = ctx.lesson || null;
    // The state already read for this page, if it is the one to show first.
    this.shown = ctx.shown || null;
    this.local = new Map((held?.seats || []).map((x) => [x.seat, x.token]));
    this.revealed = null;
    this.state = null;
    this.pinned = null;
    this.hover = null;
    this.cursor = null;
  }

  /** Several seats of this game on this device. */
  get hotseat() {
    return this.local.size > 1;
  }

  /**
   * The seat whose view is asked for: the only seat here; on a shared device the one that showed
   * its tiles, or else the first seat held (its tiles stay hidden: see `you`). A page that holds
   * seats reads the game with their tokens, never with the player's key, which the server
   * answers as whichever seat the player sits in.
   */
  get viewer() {
    if (!this.local.size) return null;
    if (this.local.size === 1 || this.revealed === null) return [...this.local.keys()][0];
    return this.revealed;
  }

  get token() {
    return this.viewer === null ? undefined : this.local.get(this.viewer);
  }

  /** The seat's view to show face up (none while a hot-seat device waits to be passed on). */
  get you() {
    const you = this.state.you;
    if (!you) return null;
    if (this.hotseat && this.revealed !== you.seat) return null;
    return you;
  }

  name(seat) {
    return this.state.players[seat]?.name ?? `Player ${seat + 1}`;
  }

  /** A seat's name in its own bidi-isolated element. */
  who(seat) {
    return nameEl(this.name(seat));
  }

  isLocal(seat) {
    return seat !== null && seat !== undefined && this.local.has(seat);
  }

  async start() {
    try {
      this.state = this.shown || await metroApi.state(this.id, this.token);
      this.shown = null;
    } catch (e) {
      return notFound(this.root, e, this.navigate);
    }
    this.build();
    this.render();
    this.lesson?.onState(this.state);
    const stop = this.listen(metroApi.events(this.id, this.token));
    // A game played in the page learns when the server has kept it (or refused it): the same
    // version, shown again.
    const stopSending = sendWhenOver(this.id, this.state, () => this.refresh({ redraw: true }));
    return () => {
      stopSending();
      stop();
    };
  }

  /**
   * Reads the state again and shows it if it is newer, or another seat's view; with `redraw`
   * (a seat that just showed its tiles), whenever it is not older.
   */
  async refresh({ redraw = false } = {}) {
    const token = this.token;
    try {
      const next = await metroApi.state(this.id, token);
      // Drop an answer for a seat the page no longer shows, and any older state.
      if (token !== this.token) return;
      const now = this.state;
      const newer = next.version > now.version || (next.version === now.version && next.you?.seat !== now.you?.seat);
      if (newer || (redraw && next.version >= now.version)) this.update(next);
    } catch (e) {
      this.say(e.message, 'error');
    }
  }

  /**
   * A new state. The computers' moves are paced: each stays alone on the board, ringed, for
   * PACE_MS before the next is shown (states that come sooner wait in order), except under
   * reduced motion, where every state shows at once.
   */
  update(next) {
    this.paced ||= [];
    const last = this.paced.length ? this.paced[this.paced.length - 1] : this.state;
    if (this.paced.length && next.version <= last.version && next.you?.seat === last.you?.seat) return;
    if (this.paced.length || this.paceable(next, last)) {
      this.paced.push(next);
      this.drainPaced();
      return;
    }
    this.show(next);
  }

  /** Whether `next` brings a move by a seat not on this device while the last move is still fresh. */
  paceable(next, last) {
    if (reducedMotion() || !this.lastMoveAt) return false;
    return this.othersPlaced(last, next) && Date.now() - this.lastMoveAt < PACE_MS;
  }

  /** Whether a seat not held on this device placed a tile between two states. */
  othersPlaced(from, to) {
    const placed = (st) => (st.moves || []).filter((m) => m.action === 'place');
    return placed(to).slice(placed(from).length).some((m) => !this.isLocal(m.seat));
  }

  drainPaced() {
    if (this.paceTimer) return;
    const wait = Math.max(0, this.lastMoveAt + PACE_MS - Date.now());
    this.paceTimer = setTimeout(() => {
      this.paceTimer = null;
      const next = this.paced.shift();
      if (next) this.show(next);
      if (this.paced.length) this.drainPaced();
    }, wait);
  }

  show(next) {
    if (this.othersPlaced(this.state, next)) this.lastMoveAt = Date.now();
    const before = placements(this.state.sequence).length;
    const after = placements(next.sequence).length;
    const turnChanged = next.turn !== this.state.turn;
    if (next.finished && !this.state.finished) {
      play('end');
      this.hush();
    } else if (after > before) play('place');
    if (next.you?.tile !== this.state.you?.tile || turnChanged) this.cursor = null;
    this.state = next;
    // On a shared device, a seat's tiles are shown on its own turn only.
    if (this.hotseat && this.revealed !== null && next.turn !== this.revealed) this.revealed = null;
    this.render({ fresh: after > before ? before : null });
    if (turnChanged && !next.finished) this.announceTurn();
    this.lesson?.onState(next);
  }

  /** Clears the message line (a game just over: whose turn it was is old news). */
  hush() {
    fill(this.message);
    this.message.className = 'message';
    this.message.removeAttribute('title');
  }

  /** A refusal in words: which tile, where and why (the server's sentence is its tooltip). */
  refusalText(e) {
    const tile = this.pending?.tile;
    return metroRefusalWords(e.message, e.rule, tile ? tileMention(this.table, tile) : null, this.pending?.square);
  }

  refused(e) {
    this.lesson?.onRefusal(e, this.refusalText(e));
  }

  announceTurn() {
    const st = this.state;
    if (st.turn === null) return;
    const you = this.you;
    if (you?.your_turn) this.say(this.hotseat ? ['Your turn, ', this.who(st.turn), '.'] : 'Your turn.', 'info');
    else if (this.hotseat && this.isLocal(st.turn)) this.say([this.who(st.turn), '\'s turn: pass the device.'], 'info');
  }

  // ---- building the page

  build() {
    const st = this.state;
    this.bar = h('div', { class: 'game-bar m-bar' });
    this.banner = h('div', { class: 'end-banner', hidden: true });
    this.message = h('div', { class: 'message', role: 'status', 'aria-live': 'polite' });
    this.lineInfo = h('div', { class: 'm-line-info', id: 'line-info', 'aria-live': 'polite' });
    this.board = createMetroBoard(this.table, { label: 'The Metro board', interactive: true, players: st.players.length });
    this.board.svg.id = 'metro-board';
    this.tray = h('aside', { class: 'tray m-tray', 'aria-label': 'Your tiles and actions' });
    this.side = h('aside', { class: 'side m-side' });
    this.playersPanel = h('section', { class: 'panel m-players-panel', 'aria-label': 'Players and scores' });
    this.logPanel = h('section', { class: 'panel m-log-panel', 'aria-label': 'Latest moves' });
    this.linesPanel = h('section', { class: 'panel m-lines-panel', id: 'every-line', hidden: true });
    fill(this.side, this.playersPanel, this.logPanel);
    this.boardLinks = h('div', { class: 'board-links' });
    const main = h('div', { class: 'main-board m-main' }, this.board.svg, this.lineInfo, this.message, this.boardLinks);
    this.layout = h('div', { class: 'game-layout m-layout' }, this.tray, main, this.side);
    // Under the board: what a finished challenge shows besides its rank (the leaderboard, the chart).
    this.after = h('div', { class: 'end-after' });
    this.mount(h('section', { class: 'game m-game', id: 'metro-game' }, this.lesson?.element, this.bar, this.banner, this.layout, this.after, this.linesPanel), 'drag-ghost m-ghost');
  }

  wireBoard() {
    const svg = this.board.svg;
    svg.addEventListener('pointermove', (ev) => {
      if (this.dragging) return;
      const station = this.board.stationAt(ev.target);
      if (station !== this.hover) {
        this.hover = station;
        this.showLine();
      }
      const you = this.you;
      if (ev.pointerType === 'touch' || !you?.your_turn || !you.tile) return;
      const sq = this.board.squareAt(ev.clientX, ev.clientY);
      const free = sq && !this.occupied(sq) && !this.table.centre.includes(sq);
      this.board.setDrop(free ? sq : null, you.tile, this.legal().has(sq));
    });
    svg.addEventListener('pointerleave', () => {
      if (this.dragging) return;
      this.board.setDrop(null);
      this.hover = null;
      this.showLine();
    });
    svg.addEventListener('click', (ev) => {
      const you = this.you;
      const canPlace = you?.your_turn && you.tile;
      const sq = this.board.squareAt(ev.clientX, ev.clientY);
      const station = this.board.stationAt(ev.target);
      if (canPlace && sq && !this.occupied(sq)) {
        this.place(sq);
        return;
      }
      if (station !== null) {
        this.pinned = this.pinned === station ? null : station;
        this.showLine();
        return;
      }
      if (canPlace && sq) {
        this.place(sq); // an occupied square: the server says why not
        return;
      }
      if (this.pinned !== null) {
        this.pinned = null;
        this.showLine();
      }
    });
  }

  occupied(square) {
    return placements(this.state.sequence).some((p) => p.square === square);
  }

  legal() {
    const you = this.you;
    return new Set(you?.your_turn && you.tile ? squaresOf(you.legal) : []);
  }

  /** The line under the pointer (or tapped) on the board, and in words under it. */
  showLine() {
    const station = this.pinned ?? this.hover;
    this.board.highlight(station);
    const line = station === null ? null : this.state.lines.find((l) => l.station === station);
    if (!line) {
      fill(this.lineInfo, h('span', { class: 'muted' }, this.state.finished
        ? 'Hover over or tap a line or a station to see its length and points.'
        : 'Hover over or tap a line or a station: a finished line shows its length and points.'));
      this.lineInfo.classList.remove('active');
      return;
    }
    const { nodes } = describeLine(line, this.state.players);
    fill(this.lineInfo, swatch(line.owner), nodes);
    this.lineInfo.classList.add('active');
  }

  // ---- actions

  key(ev) {
    if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    const you = this.you;
    const placing = you?.your_turn && you.tile;
    const step = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[k];
    if (k === 'd' && you?.draw.allowed) { ev.preventDefault(); this.draw(); }
    else if (k === 'k' && you?.keep.allowed) { ev.preventDefault(); this.keep(); }
    else if (step && placing) { ev.preventDefault(); this.moveCursor(step); }
    else if ((k === 'enter' || k === ' ') && placing && this.cursor && !(ev.target instanceof HTMLButtonElement)) {
      ev.preventDefault();
      this.place(this.cursor);
    } else if (k === 'escape') { this.pinned = null; this.cursor = null; this.showLine(); this.board.setDrop(null); }
  }

  /** Moves the keyboard's square (shown as the tile where it would go), from the first legal one. */
  moveCursor([dr, dc]) {
    const you = this.you;
    if (!this.cursor) {
      this.cursor = [...this.legal()][0] || '00';
    } else {
      let r = Number(this.cursor[0]);
      let c = Number(this.cursor[1]);
      do {
        r = Math.min(7, Math.max(0, r + dr));
        c = Math.min(7, Math.max(0, c + dc));
      } while (this.table.centre.includes(`${r}${c}`));
      this.cursor = `${r}${c}`;
    }
    const legal = this.legal().has(this.cursor);
    this.board.setDrop(this.cursor, you.tile, legal);
    this.say([tileMention(this.table, you.tile, { capital: true }), ` on ${squareText(this.cursor)}: ${legal ? 'legal. Enter places it.' : 'not legal here.'}`], legal ? 'info' : 'error');
  }

  async draw() {
    const ok = await this.act('Drawing', () => metroApi.draw(this.id, this.token));
    const you = this.you;
    if (ok && you?.drawn) {
      const drawn = tileMention(this.table, you.drawn);
      this.say(this.state.phase === 'drawn'
        ? ['You drew ', drawn, '. Place it, or keep it and draw another.']
        : ['You drew ', drawn, ': place it now.'], 'ok');
    }
  }

  async keep() {
    const ok = await this.act('Keeping', () => metroApi.keep(this.id, this.token));
    const you = this.you;
    if (ok && you) this.say(['You kept ', tileMention(this.table, you.hand), ' in hand and drew ', tileMention(this.table, you.drawn), ', which must be placed now.'], 'ok');
  }

  async place(square) {
    const you = this.you;
    if (!you?.tile) return;
    const tile = you.tile;
    const legal = this.legal().has(square);
    this.board.setDrop(null);
    this.pending = { tile, square };
    const ok = await this.act('Placing', () => metroApi.place(this.id, this.token, square, tile));
    this.pending = null;
    if (ok) this.say(['Placed ', tileMention(this.table, tile), ` on ${squareText(square)}.`], 'ok');
    else if (!legal) this.board.flash(square);
  }

  /** A seat of a shared device shows its tiles: its view is read and drawn, whatever its version. */
  reveal(seat) {
    this.revealed = seat;
    this.say([this.who(seat), ', your turn.'], 'info');
    this.refresh({ redraw: true });
  }

  // ---- dragging the tile to place (pointer events: mouse, pen and touch alike)

  pointerDown(ev) {
    const you = this.you;
    if (!you?.tile || (ev.button !== 0 && ev.pointerType === 'mouse')) return;
    ev.preventDefault();
    const tile = you.tile;
    this.trackDrag(ev, {
      begin: () => this.showGhost(tileSvg(this.table, tile), 800 + 88),
      over: (sq) => this.board.setDrop(sq && !this.occupied(sq) ? sq : null, tile, this.legal().has(sq)),
      drop: (sq) => { if (sq) this.place(sq); },
      click: () => {
        this.board.setDrop(null);
        this.say(['Drag ', tileMention(this.table, tile), ' onto a green square, or click one.'], 'info');
      },
    });
  }

  // ---- rendering

  /** The seat of each placement, in order. */
  placers() {
    return this.state.moves.filter((m) => m.action === 'place').map((m) => m.seat);
  }

  render({ fresh = null } = {}) {
    const st = this.state;
    const turnName = st.turn === null ? null : this.name(st.turn);
    setTitle(st.finished ? 'Game over' : (this.you?.your_turn ? 'Your turn' : `${isolated(turnName)}'s turn`));
    this.renderBar();
    this.renderBanner();
    this.board.setSequence(st.sequence, { fresh, placers: this.placers() });
    fill(this.boardLinks, boardActions(metroViewer(st.sequence, st.players.length), st.sequence));
    this.board.setLines(st.lines);
    this.board.setLegal([...this.legal()]);
    this.showLine();
    this.renderTray();
    this.renderPlayers();
    this.renderLog();
    this.renderLines();
    this.root.classList.toggle('spectator', this.local.size === 0);
  }

  renderBar() {
    const st = this.state;
    const placed = placements(st.sequence).length;
    let turn;
    if (st.finished) turn = h('strong', {}, 'Game over');
    else {
      const p = st.players[st.turn];
      const mine = this.you?.your_turn;
      turn = h('strong', { class: 'm-turn', id: 'turn' }, swatch(st.turn),
        mine ? 'Your turn' : h('span', {}, nameEl(p.name), '\'s turn'),
        p.kind === 'computer' ? h('small', { class: 'muted' }, ' thinking…') : null,
        p.open ? h('small', { class: 'muted' }, ' (waiting for them to join)') : null);
    }
    const progress = h('div', { class: 'm-progress', title: `${placed} of ${this.table.deck} tiles placed` },
      h('span', { class: 'm-progress-fill' }));
    progress.firstChild.style.width = `${(100 * placed) / this.table.deck}%`;
    const invited = st.players.some((p) => p.invited);
    fill(this.bar,
      h('div', { class: 'bar-title' }, h('span', { class: 'mode-chip' }, 'Metro'),
        st.mode === 'challenge' ? h('span', { class: 'mode-chip challenge-chip' }, kindLabel(st.challenge)) : null,
        st.practice ? h('span', { class: 'mode-chip challenge-chip' }, `Practice: ${kindLabel(st.practice_of).toLowerCase()}`) : null, turn),
      h('div', { class: 'm-deck', id: 'deck' },
        tileBackSvg({ class: 'm-tile-svg m-tile-back m-deck-icon' }),
        h('span', {}, h('strong', { id: 'deck-left' }, st.deck_left), ` ${st.deck_left === 1 ? 'tile' : 'tiles'} left`)),
      h('div', { class: 'm-placed-count' }, progress, h('small', { class: 'muted' }, `${placed} of ${this.table.deck} placed`)),
      invited && !st.finished ? this.inviteBox(`/metro/${this.id}`, st.open_seats.length ? `Invite (${st.open_seats.length} open):` : 'Link:') : null,
      clockLine(st, this.local.size === 1 ? this.you?.seat : null),
      st.offline ? offlineLine(st) : null,
      this.soundButton ??= soundToggle());
  }

  renderBanner() {
    const st = this.state;
    this.banner.hidden = !st.finished;
    if (!st.finished) return;
    const ranked = [...st.players].sort((a, b) => b.score - a.score || a.seat - b.seat);
    const winners = st.winners.map((i) => st.players[i]);
    const you = (p) => this.local.size === 1 && this.local.has(p.seat);
    const challenge = st.mode === 'challenge' ? st.challenge : null;
    // A challenge's game (or its practice) is one table among the leaderboard's: its win is
    // this game's, apart from the rank among the people who played the deck.
    const ofGame = challenge || st.practice ? ' this game' : '';
    let headline;
    if (winners.length === 1) {
      const w = winners[0];
      headline = you(w) ? `You win${ofGame} with ${pointsText(w.score)}` : [nameEl(w.name), ` wins${ofGame} with ${pointsText(w.score)}`];
    } else {
      headline = [nameList(winners.map((w) => w.name)), ` share the win${ofGame ? ' of this game' : ''} with ${pointsText(winners[0].score)}`];
    }
    let place = 0;
    if (challenge && !this.result) this.result = challengeResult(challenge, { game: 'metro' });
    const practised = st.practice ? st.practice_of : null;
    if (practised && !this.result) this.result = { summary: practiceResult(practised, st.players[0].score, { game: 'metro' }), card: null };
    if (this.local.size && !st.offline && !this.bestNote) this.bestNote = newBestNote(this.id);
    fill(this.banner,
      h('div', {},
        h('h2', { id: 'winner' }, headline),
        challenge ? this.result.summary : null,
        this.local.size && !st.offline ? this.bestNote : null,
        ofGame ? h('p', { class: 'small', id: 'table-ranking' }, `At this table, ${this.local.size ? 'you' : 'the player'} and the three strong computers every player of this deck meets:`) : null,
        h('ol', { class: 'ranking m-ranking' }, ranked.map((p, i) => {
          if (i === 0 || p.score !== ranked[i - 1].score) place = i + 1;
          return h('li', { value: place }, swatch(p.seat), nameEl(p.name), `${you(p) ? ' (you)' : ''}: ${pointsText(p.score)}`);
        })),
        st.seed !== undefined && !challenge ? h('p', { class: 'muted small' }, `Seed ${st.seed}: start a game with this seed to draw the same tiles.`) : null),
      h('div', { class: 'row' },
        h('button', { class: 'btn', type: 'button', onclick: () => this.linesPanel.scrollIntoView({ behavior: 'smooth', block: 'start' }) }, 'Every line'),
        // A game played in the page stays there: its replay and review are the server's.
        st.offline ? null : h('a', { class: 'btn', id: 'replay-link', href: `/metro/${this.id}/replay`, 'data-link': '' }, 'Replay'),
        st.offline ? null : h('a', { class: 'btn', id: 'review-link', href: `/metro/${this.id}/review?seat=${this.local.size ? Math.min(...this.local.keys()) : 0}`, 'data-link': '', title: 'Decision by decision, what the computer would have done' }, 'Review'),
        challenge ? h('a', { class: 'btn primary', id: 'leaderboard-link', href: `/challenges/${challenge}`, 'data-link': '' }, 'Leaderboard') : null,
        this.local.size && !st.offline ? playAgainButton(st, () => this.playAgain(), this.navigate) : null,
        h('button', { class: `btn${challenge || (this.local.size && !st.offline) ? '' : ' primary'}`, onclick: () => this.navigate('/') }, 'New game')),
      practised ? this.result.summary : null);
    fill(this.after, challenge ? this.result.card : null);
  }

  /**
   * Plays this finished game again: makes the rematch (the seats on this device come with it),
   * or joins the one another seat made, in this seat's place if it is open; keeps the new seats
   * and gives the new game's path.
   */
  async playAgain() {
    const [seat, token] = [...this.local.entries()][0];
    const made = await metroApi.rematch(this.id, token);
    let held = made.seats;
    if (!held) {
      const name = this.state.players[seat]?.name;
      const joined = await metroApi.join(made.id, { name, seat }).catch(() => metroApi.join(made.id, { name }));
      held = joined.seats;
    }
    metroSeats.add(made.id, held);
    return `/metro/${made.id}`;
  }

  /** A server's sentence with any tile code in it said by the tile's name ("the tile straights from …"). */
  codesInWords(text) {
    return (text || '').replace(/\b[a-d]{4}\b/g, (code) => `the tile ${tileName(this.table, code)}`);
  }

  tileSlot(label, tile, { toPlace = false, id } = {}) {
    const slot = h('div', { class: `m-slot${tile ? '' : ' empty'}${toPlace ? ' to-place' : ''}`, id },
      h('span', { class: 'm-slot-label' }, label),
      tile ? tileSvg(this.table, tile) : h('span', { class: 'm-slot-empty' }, 'empty'),
      tile ? h('span', { class: 'm-slot-code', title: `tile ${tile}`, dataset: { tile } }, tileName(this.table, tile)) : null);
    if (toPlace) {
      slot.title = 'Drag onto a green square, or click a green square';
      slot.dataset.tile = tile;
      slot.addEventListener('pointerdown', (ev) => this.pointerDown(ev));
    }
    return slot;
  }

  renderTray() {
    const st = this.state;
    const you = this.you;
    if (st.finished) {
      fill(this.tray, h('section', { class: 'panel' },
        h('h2', {}, 'Game over'),
        h('p', {}, 'All 60 tiles are placed. Every line is finished: hover over or tap one to see its length and points, or read them all below the board.')));
      return;
    }
    const turnSeat = st.turn;
    if (this.hotseat && this.isLocal(turnSeat) && this.revealed !== turnSeat) {
      const name = () => this.who(turnSeat);
      const panel = h('section', { class: 'panel m-curtain', id: 'curtain' },
        h('h2', {}, 'Pass the device'),
        h('p', { class: 'm-curtain-name' }, swatch(turnSeat), name()),
        h('p', {}, 'It is ', name(), '\'s turn. Only ', name(), ' should look: the tiles in hand stay hidden until then.'),
        h('button', { class: 'btn primary big', id: 'reveal', type: 'button', onclick: () => this.reveal(turnSeat) }, h('span', { class: 'btn-label' }, 'I am ', name(), ': show my tiles')));
      fill(this.tray, panel);
      return;
    }
    if (!you) {
      const p = st.players[turnSeat];
      const words = p.open
        ? [nameEl(p.name), '\'s seat is waiting for an invited person to join with the link.']
        : p.kind === 'computer'
          ? [nameEl(p.name), ` (computer, ${levelLabel(p.level)}) is playing.`]
          : [nameEl(p.name), ' is playing.'];
      fill(this.tray, h('section', { class: 'panel' },
        h('h2', {}, h('span', {}, nameEl(p.name), '\'s turn')),
        h('p', {}, words),
        this.local.size === 0
          ? h('p', { class: 'muted small' }, 'You are watching this game. Nobody\'s tiles in hand are shown.')
          : h('p', { class: 'muted small' }, 'Seats on this device: ', nameList([...this.local.keys()].map((k) => this.name(k)), { and: ', ' }), '. Their tiles show on their turns.')));
      return;
    }
    const mine = you.your_turn;
    const toPlaceHand = mine && you.tile && !you.drawn;
    // The actions of this moment of the turn; a refused one says why (the engine's reason).
    const drawButton = mine && (you.draw.allowed || st.phase === 'start')
      ? h('button', { class: `btn${you.hand ? '' : ' primary'}`, id: 'draw', type: 'button', disabled: !you.draw.allowed, title: you.draw.allowed ? 'Draw a tile (D)' : this.codesInWords(you.draw.reason), onclick: () => this.draw() },
        you.hand ? 'Draw a new tile instead' : 'Draw a tile')
      : null;
    const keepButton = mine && (you.keep.allowed || st.phase === 'drawn')
      ? h('button', { class: 'btn', id: 'keep', type: 'button', disabled: !you.keep.allowed, title: you.keep.allowed ? 'Keep it in hand and draw another (K)' : this.codesInWords(you.keep.reason), onclick: () => this.keep() },
        'Keep it and draw another')
      : null;
    const actions = drawButton || keepButton ? h('div', { class: 'm-actions' }, drawButton, keepButton) : null;
    const help = h('p', { class: `m-help${mine ? ' mine' : ''}`, id: 'turn-help' }, turnHelp(st, you));
    const reasons = mine && st.phase === 'must_place' ? h('p', { class: 'end-reason small', id: 'must-place', title: you.keep.reason }, `No keeping or drawing now: ${this.codesInWords(you.keep.reason)}.`) : null;
    fill(this.tray,
      h('section', { class: 'panel m-hand-panel' },
        h('h2', {}, mine ? 'Your turn' : h('span', {}, this.who(turnSeat), '\'s turn'), h('span', { class: 'limits' }, this.hotseat ? this.who(you.seat) : '')),
        h('div', { class: 'm-hand' },
          this.tileSlot('In hand', you.hand, { toPlace: toPlaceHand, id: 'hand' }),
          this.tileSlot('Drawn', you.drawn, { toPlace: mine && !!you.drawn, id: 'drawn' })),
        help,
        reasons,
        actions,
        mine && you.tile ? h('p', { class: 'muted small m-squares-help' }, `${squaresOf(you.legal).length} green squares: drag the tile onto one, or click one`, h('span', { class: 'keys-help' }, ' (or choose one with the arrow keys and press Enter)'), '.') : null,
        mine ? h('p', { class: 'muted small m-keys' }, 'Keys: D draws, K keeps.') : null));
  }

  renderPlayers() {
    const st = this.state;
    const you = this.you;
    const items = st.players.map((p) => {
      let hand;
      if (you && you.seat === p.seat && you.hand) hand = tileSvg(this.table, you.hand, { class: 'm-tile-svg m-mini-tile' });
      else if (p.holding) hand = tileBackSvg({ class: 'm-tile-svg m-tile-back m-mini-tile' });
      else hand = h('span', { class: 'm-mini-empty', title: 'no tile in hand' });
      const tags = [];
      if (this.local.size === 1 && this.local.has(p.seat)) tags.push(h('span', { class: 'chip' }, 'you'));
      else if (this.hotseat && this.local.has(p.seat)) tags.push(h('span', { class: 'chip' }, 'this device'));
      if (p.kind === 'computer') tags.push(h('span', { class: 'chip computer' }, `computer · ${LEVELS[p.level] || p.level}`));
      if (p.open) tags.push(h('span', { class: 'chip waiting' }, 'invited · not here yet'));
      if (resignedWords(st, p.seat)) tags.push(h('span', { class: 'chip computer' }, resignedWords(st, p.seat)));
      const rating = st.ratings?.[p.seat];
      if (rating) tags.push(h('span', { class: 'chip rating-chip', title: ratingTitle(rating) }, ratingText(rating)));
      const li = h('li', { class: `m-player${st.turn === p.seat ? ' turn' : ''}`, dataset: { seat: p.seat } },
        swatch(p.seat),
        nameEl(p.name, { class: 'm-player-name' }),
        h('span', { class: 'm-player-hand', title: p.holding ? 'holds a tile' : 'no tile in hand' }, hand),
        h('span', { class: 'm-player-score', title: pointsText(p.score) }, h('strong', {}, p.score)),
        tags.length ? h('span', { class: 'm-player-tags' }, tags) : null);
      li.style.setProperty('--seat', seatColour(p.seat));
      return li;
    });
    fill(this.playersPanel,
      h('h2', {}, 'Players', h('span', { class: 'limits' }, 'hand · score')),
      h('ul', { class: 'm-players', id: 'players' }, items),
      h('p', { class: 'muted small m-legend-note' }, 'Each station is coloured by its owner. A line scores 1 a tile when it reaches a station, double into the central station; unfinished lines score nothing.'),
      // Out of the tray, which a phone keeps on the screen with the board.
      you && this.local.size === 1 ? resignButton('metro', this.id, st, you.seat, this.token, (next) => { if (next.version >= this.state.version) this.update(next); }) : null);
  }

  renderLog() {
    const st = this.state;
    const turns = turnsInWords(st, this.table).slice(-6).reverse();
    fill(this.logPanel,
      h('h2', {}, 'Latest moves'),
      turns.length
        ? h('ol', { class: 'm-log', id: 'log' }, turns.map((t, i) => h('li', { class: i === 0 ? 'latest' : '' }, swatch(t.seat), h('span', {}, h('strong', {}, this.who(t.seat)), ' ', t.text))))
        : h('p', { class: 'muted small' }, 'No moves yet.'));
  }

  renderLines() {
    const st = this.state;
    this.linesPanel.hidden = !st.finished;
    if (!st.finished) return;
    const owners = st.players.map((p) => ({ p, lines: st.lines.filter((l) => l.owner === p.seat) }));
    const unowned = st.lines.filter((l) => l.owner === null);
    const row = (line) => {
      const end = line.end.kind === 'centre' ? 'central station' : line.end.kind === 'station' ? (line.end.station === line.station ? 'itself' : `station ${line.end.station}`) : 'unfinished';
      const tr = h('tr', { dataset: { station: line.station }, tabindex: 0 },
        h('td', {}, line.station),
        h('td', {}, end),
        h('td', {}, line.length),
        h('td', {}, line.end.kind === 'centre' ? `${line.length} × 2 = ${line.points}` : line.points));
      const on = () => { this.hover = line.station; this.showLine(); };
      const off = () => { this.hover = null; this.showLine(); };
      tr.addEventListener('pointerenter', on);
      tr.addEventListener('pointerleave', off);
      tr.addEventListener('focus', on);
      tr.addEventListener('blur', off);
      tr.addEventListener('click', () => { this.pinned = line.station; this.showLine(); this.board.svg.scrollIntoView({ block: 'center', behavior: 'smooth' }); });
      return tr;
    };
    const table = (lines) => h('table', { class: 'm-lines' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Station'), h('th', {}, 'Ends at'), h('th', {}, 'Tiles'), h('th', {}, 'Points'))),
      h('tbody', {}, lines.map(row)));
    fill(this.linesPanel,
      h('h2', {}, 'Every line'),
      h('p', { class: 'muted small' }, 'Each station\'s line, for its owner. Hover over or tap a row to see the line on the board.'),
      h('div', { class: 'm-lines-grid' },
        owners.map(({ p, lines }) => h('section', { class: 'm-lines-owner' },
          h('h3', {}, swatch(p.seat), nameEl(p.name), h('span', { class: 'm-lines-total' }, pointsText(p.score))),
          table(lines))),
        unowned.length ? h('section', { class: 'm-lines-owner' }, h('h3', {}, swatch(null), 'Nobody\'s stations'), table(unowned)) : null));
  }
}
