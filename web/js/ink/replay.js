// The Railroad Ink replay (`/ink/{id}/replay?at=k`): each step is one action with the acting
// seat's board and score after it (GET /api/ink/games/{id}/replay); every seat's board and
// score are shown as they were.

import { h, fill, isolated, nameEl, nameList } from '../core/dom.js';
import { Replay, replayScreen, when } from '../core/replay.js';
import { pointsText } from '../core/words.js';
import { EXPANSIONS, MODES, api } from './api.js';
import { boardActions, inkViewer } from '../core/boardlinks.js';
import { createBoard, placementWords, tileSvg, tileWords, placements as parsePlacements } from './draw.js';
import { applyOverlays, inkBreakdownTable, overlaysOf, overlayToggles } from './breakdown.js';

/** The empty board's breakdown (nothing placed, nothing scored). */
const EMPTY = {
  score: { exits: 0, centre: 0, errors: 0, basic: 0, longest_highway: 0, longest_railway: 0, advanced: 0 },
  networks: [], errors: [], centre: [], longest_highway: [], longest_railway: [],
};

/** `/ink/{id}/replay?at=k`. */
export function inkReplayScreen(root, id, { table, setTitle }) {
  return replayScreen(root, { setTitle, load: () => api.replay(id), show: (replay) => new InkReplay(root, replay, table).start() });
}

class InkReplay extends Replay {
  constructor(root, replay, table) {
    super(root, replay, table);
    this.expansion = replay.expansion;
    this.rounds = replay.rolls.length || 7;
    this.overlayList = overlaysOf(replay.expansion);
    this.overlays = new Set(this.overlayList.map(([k]) => k));
    this.boards = [];
    // states[k][seat]: {board, breakdown} after step k (step 0 is the start).
    const n = replay.players.length;
    let now = Array.from({ length: n }, () => ({ board: '', breakdown: EMPTY, flooded: [] }));
    this.states = [now];
    for (const step of replay.steps) {
      if (step.board !== undefined) {
        now = now.slice();
        now[step.seat] = { board: step.board, breakdown: step.breakdown, flooded: step.flooded || [] };
      }
      this.states.push(now);
    }
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
    this.dice = h('div', { class: 'replay-dice' });
    this.grid = h('div', { class: `replay-boards seats-${Math.min(r.players.length, 4)}` });
    this.side = h('aside', { class: 'side replay-side' });
    const kind = r.expansion ? `Railroad Ink · ${EXPANSIONS[r.expansion] || r.expansion}` : 'Railroad Ink';
    this.frame('ink', [`${kind} · ${MODES[r.mode] || r.mode} · ${when(r.created)}. `, headline, '.'], this.dice, [this.grid, this.side]);
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
      return [who, ` placed the ${placementWords(this.table, a.placement)}.`];
    }
    if (a.action === 'undo') {
      const before = parsePlacements(this.states[k - 1][step.seat].board);
      const gone = before[before.length - 1];
      return [who, ` took back ${gone ? `the ${tileWords(this.table, gone.tile)} on ${gone.square}` : 'a placement'}.`];
    }
    if (a.action === 'join') return [who, ' joined the game.'];
    const round = r.steps[k - 1].round;
    const prev = k > 1 ? r.steps[k - 2].round : 0;
    const last = this.rounds;
    if (round >= last && prev < last) return [who, ` ended round ${last}: the game is over.`];
    if (round > prev) return [who, ` ended round ${prev + 1}: round ${round + 1} begins.`];
    return [who, ` ended round ${round + 1}.`];
  }

  render(updateUrl) {
    const r = this.r;
    const k = this.at;
    const step = k > 0 ? r.steps[k - 1] : null;
    const round = step ? step.round : 0;
    const states = this.states[k];
    this.showStep(k, updateUrl);
    const over = round >= this.rounds;
    const roll = r.rolls[Math.min(round, this.rounds - 1)];
    // Four route dice, and an expansion's two optional dice after them.
    const dice = Array.from({ length: roll.length / 2 }, (_, i) => 2 * i);
    fill(this.dice,
      h('span', { class: 'round-label' }, over ? 'Game over' : `Round ${round + 1}`),
      over ? null : h('span', { class: 'mini-dice', title: `The dice: ${dice.map((i) => tileWords(this.table, roll.slice(i, i + 2))).join(', ')}` },
        dice.map((i) => {
          const tile = roll.slice(i, i + 2);
          return h('span', { class: `mini-die die-${tile[0]}` }, tileSvg(this.table, tile, 0, { 'aria-label': tileWords(this.table, tile) }));
        })));
    const cards = r.players.map((p, seat) => {
      const b = this.boards[seat];
      const s = states[seat];
      const joined = k >= p.from_step;
      b.setBoard(s.board, { flooded: s.flooded });
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
        joined ? null : h('p', { class: 'muted small' }, `Joins at action ${p.from_step}.`),
        boardActions(inkViewer(s.board, this.expansion), s.board),
        h('a', { class: 'btn small review-link', href: `/ink/${r.id}/review?seat=${seat}`, 'data-link': '' }, `Review ${isolated(p.name)}'s game`));
    });
    fill(this.grid, cards);
    applyOverlays(this.boards.map((b) => b.svg), this.overlays, this.overlayList);
    const focus = step ? step.seat : 0;
    fill(this.side,
      h('section', { class: 'panel scores' },
        h('h2', {}, k === r.steps.length ? 'Final scores' : 'Scores at this moment'),
        r.players.map((p, seat) => h('details', { class: 'breakdown-details', open: seat === focus || r.players.length === 1 },
          h('summary', {}, nameEl(p.name), `: ${pointsText(states[seat].breakdown.score.advanced)}`),
          inkBreakdownTable(states[seat].breakdown, this.expansion))),
        overlayToggles(this.overlays, () => applyOverlays(this.boards.map((b) => b.svg), this.overlays, this.overlayList), this.overlayList)));
  }
}
