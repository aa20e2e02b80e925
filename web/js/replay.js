// Replays of finished games and the list of recent games. A replay comes from the server,
// which plays the game's stored actions again through the engine (GET /api/ink/games/{id}/
// replay): each step is one action with the acting seat's board and score after it. The
// slider moves through every action; each seat's board and score are shown as they were.

import { ApiError, viewAsPlayer } from './api.js';
import { h, fill, isolated, nameEl, nameList } from './dom.js';
import { createBoard, tileSvg, tileWords, placements as parsePlacements } from './draw.js';
import { INK_OVERLAYS, applyOverlays, inkBreakdownTable, overlayToggles, pointsText, stepper } from './breakdown.js';
import { describe, getJson } from './viewer.js';
import { NOT_YET } from './screen.js';
import { metroApi } from './metro-api.js';
import { createMetroBoard, describeLine, seatColour, tileSvg as metroTileSvg } from './metro-draw.js';
import { swatch } from './breakdown.js';

const MODES = { solo: 'Solo', computer: 'Against the computer', online: 'Online', challenge: 'Challenge' };

/** The empty board's breakdown (nothing placed, nothing scored). */
const EMPTY = {
  score: { exits: 0, centre: 0, errors: 0, basic: 0, longest_highway: 0, longest_railway: 0, advanced: 0 },
  networks: [], errors: [], centre: [], longest_highway: [], longest_railway: [],
};

function when(ms) {
  return new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function notFound(root, e) {
  const status = e instanceof ApiError ? e.status : 0;
  fill(root, h('section', { class: 'card narrow center', id: 'replay-missing' },
    h('h1', {}, status === 409 ? 'Not over yet' : status === 403 ? 'Not yet' : 'No replay here'),
    h('p', {}, status === 404 ? 'There is no game at this address. The link may be mistyped.' : status === 403 ? NOT_YET : e.message),
    h('div', { class: 'row' },
      h('a', { class: 'btn primary', href: '/games', 'data-link': '' }, 'Recent games'),
      status === 409 ? h('a', { class: 'btn', href: location.pathname.replace(/\/replay$/, ''), 'data-link': '' }, 'Back to the game') : null)));
}

/** `/ink/{id}/replay?at=k`. */
export async function inkReplayScreen(root, id, { table, setTitle }) {
  setTitle('Replay');
  fill(root, h('p', { class: 'loading' }, 'Replaying the game…'));
  let replay;
  try {
    replay = await viewAsPlayer(`/api/ink/games/${id}/replay`);
  } catch (e) {
    notFound(root, e);
    return () => {};
  }
  return new InkReplay(root, replay, table).start();
}

class InkReplay {
  constructor(root, replay, table) {
    this.root = root;
    this.r = replay;
    this.table = table;
    this.overlays = new Set(INK_OVERLAYS.map(([k]) => k));
    this.boards = [];
    // states[k][seat]: {board, breakdown} after step k (step 0 is the start).
    const n = replay.players.length;
    let now = Array.from({ length: n }, () => ({ board: '', breakdown: EMPTY }));
    this.states = [now];
    for (const step of replay.steps) {
      if (step.board !== undefined) {
        now = now.slice();
        now[step.seat] = { board: step.board, breakdown: step.breakdown };
      }
      this.states.push(now);
    }
    const at = Number(new URLSearchParams(location.search).get('at'));
    this.at = new URLSearchParams(location.search).has('at') && Number.isInteger(at)
      ? Math.max(0, Math.min(replay.steps.length, at)) : replay.steps.length;
  }

  start() {
    const r = this.r;
    const winners = r.winners.map((i) => r.players[i]);
    const solo = r.players.length === 1;
    const headline = solo
      ? [nameEl(r.players[0].name), ` scored ${pointsText(r.players[0].score.advanced)}`]
      : winners.length === 1
        ? [nameEl(winners[0].name), ` won with ${pointsText(winners[0].score.advanced)}`]
        : [nameList(winners.map((w) => w.name)), ` shared the win with ${pointsText(winners[0].score.advanced)}`];
    this.caption = h('div', { class: 'step-caption message info', id: 'step-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Action', play: true, onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, r.steps.length);
    this.dice = h('div', { class: 'replay-dice' });
    this.grid = h('div', { class: `replay-boards seats-${Math.min(r.players.length, 4)}` });
    this.side = h('aside', { class: 'side replay-side' });
    fill(this.root, h('section', { class: 'replay', id: 'replay' },
      h('div', { class: 'viewer-head' },
        h('div', {},
          h('h1', {}, 'Replay'),
          h('p', { class: 'lead', id: 'replay-result' }, `Railroad Ink · ${MODES[r.mode] || r.mode} · ${when(r.created)}. `, headline, '.')),
        h('div', { class: 'row' },
          h('a', { class: 'btn', href: `/ink/${r.id}`, 'data-link': '' }, 'The game'),
          h('a', { class: 'btn', href: '/games', 'data-link': '' }, 'Recent games'))),
      h('div', { class: 'panel replay-controls' }, this.steps.el, h('div', { class: 'replay-status' }, this.dice, this.caption)),
      h('div', { class: 'replay-layout' }, this.grid, this.side)));
    this.boards = r.players.map((p) => {
      const b = createBoard(this.table, { label: `${isolated(p.name)}'s board` });
      b.svg.id = `replay-board-${p.seat}`;
      return b;
    });
    this.render(false);
    return () => this.steps.close();
  }

  /** What step k did, in words. */
  describeStep(k) {
    const r = this.r;
    if (k === 0) return `The start: ${r.players.length === 1 ? 'an empty board' : 'empty boards'}, round 1.`;
    const step = r.steps[k - 1];
    const who = nameEl(r.players[step.seat].name);
    const a = step.action;
    if (a.action === 'place') {
      return [who, ` placed ${describe(this.table, parsePlacements(a.placement)[0])}.`];
    }
    if (a.action === 'undo') {
      const before = parsePlacements(this.states[k - 1][step.seat].board);
      const gone = before[before.length - 1];
      return [who, ` took back ${gone ? gone.text : 'a placement'}.`];
    }
    if (a.action === 'join') return [who, ' joined the game.'];
    const round = r.steps[k - 1].round;
    const prev = k > 1 ? r.steps[k - 2].round : 0;
    if (round >= 7 && prev < 7) return [who, ' ended round 7: the game is over.'];
    if (round > prev) return [who, ` ended round ${prev + 1}: round ${round + 1} begins.`];
    return [who, ` ended round ${round + 1}.`];
  }

  render(updateUrl) {
    const r = this.r;
    const k = this.at;
    const step = k > 0 ? r.steps[k - 1] : null;
    const round = step ? step.round : 0;
    const states = this.states[k];
    fill(this.caption,
      h('span', { class: 'step-count' }, `Action ${k} of ${r.steps.length}`),
      h('span', {}, this.describeStep(k)));
    const roll = r.rolls[Math.min(round, 6)];
    fill(this.dice,
      h('span', { class: 'round-label' }, round >= 7 ? 'Game over' : `Round ${round + 1}`),
      round >= 7 ? null : h('span', { class: 'mini-dice', title: `Roll ${roll}` },
        [0, 2, 4, 6].map((i) => {
          const tile = roll.slice(i, i + 2);
          return h('span', { class: `mini-die die-${tile[0]}` }, tileSvg(this.table, tile, 0, { 'aria-label': tileWords(this.table, tile) }));
        })));
    const cards = r.players.map((p, seat) => {
      const b = this.boards[seat];
      const s = states[seat];
      const joined = k >= p.from_step;
      b.setBoard(s.board);
      b.setBreakdown(s.breakdown);
      b.setDrop(null);
      const acted = step && step.seat === seat;
      if (acted && step.action.action === 'place') {
        const last = parsePlacements(step.action.placement)[0];
        b.setDrop(last.square, null, 0, true);
      }
      return h('section', { class: `panel replay-seat${acted ? ' acting' : ''}${joined ? '' : ' not-joined'}`, dataset: { seat } },
        h('div', { class: 'board-title' },
          h('span', { class: 'board-name' }, nameEl(p.name), p.kind === 'computer' ? h('span', { class: 'chip' }, 'computer') : null,
            r.winners.includes(seat) && k === r.steps.length && r.players.length > 1 ? h('span', { class: 'chip winner' }, 'winner') : null),
          h('span', { class: 'board-score', id: `replay-score-${seat}` }, pointsText(s.breakdown.score.advanced))),
        b.svg,
        joined ? null : h('p', { class: 'muted small' }, `Joins at action ${p.from_step}.`));
    });
    fill(this.grid, cards);
    applyOverlays(this.boards.map((b) => b.svg), this.overlays);
    const focus = step ? step.seat : 0;
    fill(this.side,
      h('section', { class: 'panel scores' },
        h('h2', {}, k === r.steps.length ? 'Final scores' : 'Scores at this moment'),
        r.players.map((p, seat) => h('details', { class: 'breakdown-details', open: seat === focus || r.players.length === 1 },
          h('summary', {}, nameEl(p.name), `: ${pointsText(states[seat].breakdown.score.advanced)}`),
          inkBreakdownTable(states[seat].breakdown))),
        overlayToggles(this.overlays, () => applyOverlays(this.boards.map((b) => b.svg), this.overlays))));
    if (updateUrl) history.replaceState(null, '', `${location.pathname}?at=${k}`);
  }
}

// ---- Metro

/** `/metro/{id}/replay?at=k`. */
export async function metroReplayScreen(root, id, { setTitle }) {
  setTitle('Replay');
  fill(root, h('p', { class: 'loading' }, 'Replaying the game…'));
  let replay;
  let table;
  try {
    [table, replay] = await Promise.all([metroApi.tiles(), viewAsPlayer(`/api/metro/games/${id}/replay`)]);
  } catch (e) {
    notFound(root, e);
    return () => {};
  }
  return new MetroReplay(root, replay, table).start();
}

class MetroReplay {
  constructor(root, replay, table) {
    this.root = root;
    this.r = replay;
    this.table = table;
    this.n = replay.players.length;
    // At step k: the sequence, the scores and the lines of the last placement at or before k.
    let sequence = '';
    let scores = Array(this.n).fill(0);
    let lines = [];
    this.states = [{ sequence, scores, lines, hands: Array(this.n).fill(null) }];
    for (const step of replay.steps) {
      for (const e of step.events) if (e.event === 'placed') sequence += e.placement;
      if (step.scores) { scores = step.scores; lines = step.lines; }
      this.states.push({ sequence, scores, lines, hands: step.hands });
    }
    const q = new URLSearchParams(location.search);
    const at = Number(q.get('at'));
    this.at = q.has('at') && Number.isInteger(at) ? Math.max(0, Math.min(replay.steps.length, at)) : replay.steps.length;
    this.hot = null;
  }

  start() {
    const r = this.r;
    const winners = r.winners.map((i) => r.players[i].name);
    const best = Math.max(...r.scores);
    const headline = [nameList(winners), ` ${winners.length === 1 ? 'won' : 'shared the win'} with ${pointsText(best)}`];
    this.caption = h('div', { class: 'step-caption message info', id: 'step-caption', 'aria-live': 'polite' });
    this.steps = stepper({ label: 'Action', play: true, onStep: (k) => { this.at = k; this.render(true); } });
    this.steps.set(this.at, r.steps.length);
    this.board = createMetroBoard(this.table, { label: 'The board', players: this.n });
    this.board.svg.id = 'replay-board';
    this.side = h('aside', { class: 'side replay-side' });
    this.lineInfo = h('p', { class: 'muted small m-view-line', id: 'line-info' }, 'Point at a station or a track to see its line.');
    fill(this.root, h('section', { class: 'replay', id: 'replay' },
      h('div', { class: 'viewer-head' },
        h('div', {},
          h('h1', {}, 'Replay'),
          h('p', { class: 'lead', id: 'replay-result' }, `Metro · ${this.n} players · ${when(r.created)}. `, headline, '.')),
        h('div', { class: 'row' },
          h('a', { class: 'btn', href: `/metro/${r.id}`, 'data-link': '' }, 'The game'),
          h('a', { class: 'btn', href: '/games', 'data-link': '' }, 'Recent games'))),
      h('div', { class: 'panel replay-controls' }, this.steps.el, h('div', { class: 'replay-status' }, this.caption)),
      h('div', { class: 'replay-layout' },
        h('div', { class: 'replay-boards seats-1' }, h('section', { class: 'panel replay-seat' }, this.board.svg, this.lineInfo)),
        this.side)));
    const hover = (ev) => this.highlight(this.board.stationAt(ev.target));
    this.board.svg.addEventListener('pointerover', hover);
    this.board.svg.addEventListener('click', hover);
    this.board.svg.addEventListener('pointerleave', () => this.highlight(null));
    this.render(false);
    return () => this.steps.close();
  }

  highlight(station) {
    this.hot = station;
    this.board.highlight(station);
    const line = station === null ? null : this.states[this.at].lines.find((l) => l.station === station);
    fill(this.lineInfo, station === null ? 'Point at a station or a track to see its line.'
      : line ? describeLine(line, this.r.players).nodes : `Station ${station}: not started.`);
  }

  describeStep(k) {
    const r = this.r;
    if (k === 0) return 'The start: an empty board, 60 tiles in the deck.';
    const step = r.steps[k - 1];
    const who = () => nameEl(r.players[step.seat].name);
    return step.events.map((e, i) => {
      const gap = i ? ' ' : '';
      switch (e.event) {
        case 'drew': return [gap, who(), ` drew ${e.tile}.`];
        case 'kept': return [gap, who(), ` kept ${e.tile}.`];
        case 'placed': return [gap, who(), ` placed ${e.placement.slice(0, 4)} at row ${e.placement[4]}, column ${e.placement[5]}.`];
        case 'passed': return [gap, who(), ' passed.'];
        case 'ended': return `${gap}The board is full: the game is over.`;
        default: return '';
      }
    });
  }

  render(updateUrl) {
    const r = this.r;
    const k = this.at;
    const st = this.states[k];
    const step = k > 0 ? r.steps[k - 1] : null;
    this.board.setSequence(st.sequence);
    this.board.setLines(st.lines);
    const placed = step?.events.find((e) => e.event === 'placed');
    if (placed) this.board.setDrop(placed.placement.slice(4, 6), null, true);
    else this.board.setDrop(null);
    fill(this.caption,
      h('span', { class: 'step-count' }, `Action ${k} of ${r.steps.length}`),
      h('span', {}, this.describeStep(k)));
    const acting = step ? step.seat : null;
    fill(this.side, h('section', { class: 'panel scores' },
      h('h2', {}, k === r.steps.length ? 'Final scores' : 'Scores at this moment',
        h('span', { class: 'limits' }, `${st.sequence.length / 6} of 60 placed`)),
      h('ol', { class: 'm-view-scores' }, r.players.map((p, seat) => h('li', { class: seat === acting ? 'acting' : '', dataset: { seat } },
        h('details', { open: false },
          h('summary', {}, swatch(seatColour(seat)), nameEl(p.name, { class: 'm-view-player' }),
            st.hands[seat] ? h('span', { class: 'm-view-hand', title: `Holds ${st.hands[seat]}` }, metroTileSvg(this.table, st.hands[seat])) : null,
            h('span', { class: 'm-view-total', id: `replay-score-${seat}` }, pointsText(st.scores[seat]))),
          h('ul', { class: 'm-view-lines' }, st.lines.filter((l) => l.owner === seat && l.end.kind !== 'unfinished')
            .map((l) => h('li', { tabindex: 0, onpointerenter: () => this.highlight(l.station), onfocus: () => this.highlight(l.station) },
              describeLine(l, r.players).nodes)))))))));
    if (this.hot !== null) this.highlight(this.hot);
    if (updateUrl) history.replaceState(null, '', `${location.pathname}?at=${k}`);
  }
}

// ---- the list of recent games

/** `/games`: the most recently finished games, both kinds, each with its replay. */
export async function recentGamesScreen(root, { setTitle }) {
  setTitle('Recent games');
  const list = h('ol', { class: 'recent-list', id: 'recent-games' });
  const more = h('button', { class: 'btn', type: 'button', id: 'older', hidden: true }, 'Older games');
  const status = h('p', { class: 'muted' }, 'Loading…');
  fill(root, h('section', { class: 'recent' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Recent games'),
        h('p', { class: 'lead' }, 'Finished games on this server, newest first. Open one to replay it action by action.')),
      h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'New game')),
    status, list, more));
  let before = null;
  async function load() {
    more.disabled = true;
    try {
      const q = new URLSearchParams({ finished: 'true', limit: '20' });
      if (before !== null) q.set('before', String(before));
      const page = await getJson(`/api/games?${q}`);
      for (const g of page.games) list.append(entry(g));
      before = page.next ?? null;
      more.hidden = before === null;
      status.hidden = list.children.length > 0;
      status.textContent = 'No finished games yet. Play one, and its replay will be here.';
    } catch (e) {
      status.hidden = false;
      status.textContent = e.message;
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener('click', load);
  await load();
  return () => {};
}

function entry(g) {
  const game = g.kind === 'metro' ? 'Metro' : 'Railroad Ink';
  const ranked = [...g.players].sort((a, b) => b.score - a.score);
  return h('li', { class: 'recent-game', dataset: { id: g.id, kind: g.kind } },
    h('div', { class: 'recent-title' },
      h('span', { class: `game-chip game-${g.kind}` }, game),
      h('span', { class: 'muted small' }, `${g.kind === 'metro' ? `${g.players.length} players` : MODES[g.mode] || g.mode} · finished ${when(g.finished)}`)),
    h('ol', { class: 'recent-players' }, ranked.map((p) => h('li', { class: g.winners.includes(p.seat) ? 'won' : '' },
      h('span', { class: 'name' }, g.winners.includes(p.seat) && g.players.length > 1 ? '★ ' : null, nameEl(p.name)),
      h('span', { class: 'pts' }, pointsText(p.score))))),
    h('a', { class: 'btn small replay-link', href: `/${g.kind}/${g.id}/replay`, 'data-link': '' }, 'Replay'));
}
