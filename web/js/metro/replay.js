// The Metro replay (`/metro/{id}/replay?at=k`): each step is one action with the scores and
// lines after it (GET /api/metro/games/{id}/replay); the board, every line and every score are
// shown as they were.

import { h, fill, isolated, nameEl, nameList, swatch } from '../core/dom.js';
import { Replay, replayScreen, when } from '../core/replay.js';
import { pointsText } from '../core/words.js';
import { metroApi } from './api.js';
import { boardActions, metroViewer } from '../core/boardlinks.js';
import { createMetroBoard, describeLine, seatColour, tileMention, tileSvg as metroTileSvg } from './draw.js';
import { tileName } from './names.js';

/** `/metro/{id}/replay?at=k`. */
export function metroReplayScreen(root, id, { setTitle }) {
  return replayScreen(root, {
    setTitle,
    load: () => Promise.all([metroApi.tiles(), metroApi.replay(id)]),
    show: ([table, replay]) => new MetroReplay(root, replay, table).start(),
  });
}

class MetroReplay extends Replay {
  constructor(root, replay, table) {
    super(root, replay, table);
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
    this.hot = null;
  }

  start() {
    const r = this.r;
    const winners = r.winners.map((i) => r.players[i].name);
    const best = Math.max(...r.scores);
    const headline = [nameList(winners), ` ${winners.length === 1 ? 'won' : 'shared the win'} with ${pointsText(best)}`];
    this.board = createMetroBoard(this.table, { label: 'The board', players: this.n });
    this.board.svg.id = 'replay-board';
    this.side = h('aside', { class: 'side replay-side' });
    this.lineInfo = h('p', { class: 'muted small m-view-line', id: 'line-info' }, 'Point at a station or a track to see its line.');
    this.frame('metro', [`Metro · ${this.n} players · ${when(r.created)}. `, headline, '.'], null, [
      h('div', { class: 'replay-boards seats-1' }, h('section', { class: 'panel replay-seat' }, this.board.svg, this.lineInfo, this.boardLinks = h('div', { class: 'board-links' }))),
      this.side]);
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
        case 'drew': return [gap, who(), ' drew ', tileMention(this.table, e.tile), '.'];
        case 'kept': return [gap, who(), ' kept ', tileMention(this.table, e.tile), '.'];
        case 'placed': return [gap, who(), ' placed ', tileMention(this.table, e.placement.slice(0, 4)), ` on row ${e.placement[4]}, column ${e.placement[5]}.`];
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
    fill(this.boardLinks, boardActions(metroViewer(st.sequence, this.n), st.sequence));
    const placed = step?.events.find((e) => e.event === 'placed');
    if (placed) this.board.setDrop(placed.placement.slice(4, 6), null, true);
    else this.board.setDrop(null);
    this.showStep(k, updateUrl);
    const acting = step ? step.seat : null;
    fill(this.side, h('section', { class: 'panel scores' },
      h('h2', {}, k === r.steps.length ? 'Final scores' : 'Scores at this moment',
        h('span', { class: 'limits' }, `${st.sequence.length / 6} of 60 placed`)),
      h('ol', { class: 'm-view-scores' }, r.players.map((p, seat) => h('li', { class: seat === acting ? 'acting' : '', dataset: { seat } },
        h('details', { open: false },
          h('summary', {}, swatch(seatColour(seat)), nameEl(p.name, { class: 'm-view-player' }),
            st.hands[seat] ? h('span', { class: 'm-view-hand', title: `Holds ${tileName(this.table, st.hands[seat])} (${st.hands[seat]})` }, metroTileSvg(this.table, st.hands[seat])) : null,
            h('span', { class: 'm-view-total', id: `replay-score-${seat}` }, pointsText(st.scores[seat]))),
          h('ul', { class: 'm-view-lines' }, st.lines.filter((l) => l.owner === seat && l.end.kind !== 'unfinished')
            .map((l) => h('li', { tabindex: 0, onpointerenter: () => this.highlight(l.station), onfocus: () => this.highlight(l.station) },
              describeLine(l, r.players).nodes))))))),
      h('nav', { class: 'row review-seats', 'aria-label': 'The computer\'s reviews' },
        r.players.map((p, seat) => h('a', { class: 'btn small review-link', href: `/metro/${r.id}/review?seat=${seat}`, 'data-link': '' }, `Review ${isolated(p.name)}'s game`)))));
    if (this.hot !== null) this.highlight(this.hot);
  }
}
