// The Railroad Ink tutorial (`/tutorial/ink`): a scripted board where the player places nine
// tiles with guidance (exits, connections, errors, the centre, the longest routes, a network
// joining two exits, a special), then plays a round: four dice rolled, each placed where the
// player chooses, then End round (refused while a die still fits). Every placement is checked
// by the engine through the server (`POST /api/ink/check`): the page holds the script and the
// words, never a rule.

import { ApiError } from '../core/request.js';
import { h, fill } from '../core/dom.js';
import { capital, num, pointsText } from '../core/words.js';
import { api } from './api.js';
import { createBoard, tileSvg, tileWords, openEnds, legalSquares } from './draw.js';
import { dieFace, refusalWords } from './game.js';
import { expansionRow } from './breakdown.js';
import { turnButtons, turning } from './turns.js';

/** Whether a board's networks reach the exit on `square` (from the engine's breakdown). */
function reaches(breakdown, square) {
  return breakdown.networks.some((n) => n.exits.some((e) => e.square === square));
}

/** Whether the network of the exit on `exit` runs over `square`. */
function runsOver(breakdown, exit, square) {
  return breakdown.networks.some((n) => n.exits.some((e) => e.square === exit) && n.pieces.some((p) => p.square === square));
}

/**
 * The Railroad Ink lesson. Each step gives one tile and a square to try; the server places it
 * (or refuses it, in the engine's words), and the step's goal is read from the engine's
 * breakdown of the board after it. A step with `refusal` wants to see the server refuse.
 */
const INK_STEPS = [
  {
    title: 'Exits',
    tile: 'A1',
    target: 'A1A30',
    text: 'Every route starts at an exit on the edge of the board. The railway exit at the top of column 3 is waiting: put the railway straight on A3, running north–south, so that it meets that exit.',
    goal: (b) => reaches(b, 'A3'),
    miss: 'the railway has to meet the railway exit above A3',
    done: 'Your railway reaches an exit: it is now a network with one exit. At the end, each network scores by the number of exits it joins.',
    overlays: ['networks'],
  },
  {
    title: 'Connections',
    tile: 'A1',
    target: 'A1B30',
    text: 'After that, every tile must continue a route already on the board, or meet an exit. Put a second railway straight on B3, right under the first, to carry the railway on.',
    goal: (b) => b.score.longest_railway >= 2,
    miss: 'this tile should continue your railway down from A3',
    done: 'Connected: the railway now runs over two tiles.',
    overlays: ['networks'],
  },
  {
    title: 'Refusals',
    tile: 'A4',
    target: 'A4C30',
    refusal: true,
    text: 'A highway may never meet a railway. Try it and see: put the highway straight on C3, right under your railway. The server will refuse it and say why.',
    done: 'That is how a refusal sounds: the game never lets a highway touch a railway, or a route run into an exit of the other kind.',
    overlays: ['networks'],
  },
  {
    title: 'Errors',
    tile: 'A4',
    target: 'A4A10',
    text: 'Put the highway straight where it meets the highway exit at A1. Look at the red marks: every route end that faces an empty square is an error, −1 each at the end of the game (ends at the edge of the board never are).',
    goal: (b) => reaches(b, 'A1'),
    miss: 'the highway has to meet the highway exit above A1',
    done: 'Two networks now, each with one exit. The open ends under A1 and B3 are errors until something continues them.',
    overlays: ['networks', 'errors'],
  },
  {
    title: 'The centre',
    tile: 'B0',
    target: 'B0C32',
    text: 'The nine shaded squares in the middle are the centre: +1 for each one you fill. A station is where a highway and a railway may join. Put the station on C3, in the centre, its railway up to meet B3 (turn it twice with R, or the Rotate button).',
    goal: (b) => b.score.centre >= 1,
    miss: 'the station should fill C3, a centre square',
    done: 'One centre square filled: +1. The station turns your railway into a highway going down.',
    overlays: ['centre', 'errors'],
  },
  {
    title: 'Longest routes',
    tile: 'A4',
    target: 'A4D30',
    text: 'Your longest highway and your longest railway each score +1 a tile at the end (a station counts for both). Put the highway straight on D3 to lengthen the highway leaving the station.',
    goal: (b) => b.score.longest_highway >= 2,
    miss: 'the highway should continue down from the station on C3',
    done: 'Your longest railway runs over three tiles (A3, B3, C3) and your longest highway over two (C3, D3): +5 between them.',
    overlays: ['longest', 'centre'],
  },
  {
    title: 'Joining exits',
    tile: 'A5',
    target: 'A5B10',
    text: 'Exits are where the points are: a network scores by how many exits it joins, nothing for one. Your highway from the exit at A1 ends facing B1. Put the highway curve on B1, turning the highway west.',
    goal: (b) => runsOver(b, 'A1', 'B1'),
    miss: 'the curve should carry the highway down from A1 and turn it west',
    done: 'The highway now heads for B0, and the railway exit on B0\'s west side.',
    overlays: ['networks'],
  },
  {
    title: 'Two exits',
    tile: 'B0',
    target: 'B0B01',
    text: 'A station joins a highway to a railway. Put the straight station on B0, its highway east to meet the curve and its railway west into the railway exit (turn it once with R, or the Rotate button).',
    goal: (b) => b.score.exits > 0,
    miss: 'the station should join the highway on B1 to the railway exit west of B0',
    done: null,
    overlays: ['networks'],
  },
  {
    title: 'A special',
    tile: 'S2',
    target: 'S2E30',
    text: 'Besides the dice you own six specials: crossroads and stations with a route on all four sides. Put the highway crossroads on E3, under D3, to carry your highway on through the centre.',
    goal: (b) => b.score.centre >= 3,
    miss: 'the crossroads should continue your highway down from D3',
    done: 'The crossroads fills a third centre square (+1), but it opens three ends where there was one (−2): the board scores a point less for now. Specials reach in every direction and pay once later tiles continue their ends. You may add one a round, each once a game, three at most.',
    overlays: ['centre', 'errors'],
  },
  {
    title: 'Dice and rounds',
    round: true,
    text: 'A real game has seven rounds. Each round four dice are rolled, the same for every player: three A dice (straights, curves and junctions) and one B die (stations and the overpass). Here is a roll: place each die once, wherever it fits (choose a die, then a green square); then press End round.',
    done: 'That was a round. Seven of them, and the board is scored as this one is.',
    overlays: ['networks', 'errors'],
  },
];

/**
 * The Deep Blue lesson (`/tutorial/ink?lesson=deep-blue`): a step for each expansion, each on
 * a board of its own (`start`) read in its expansion, checked by the engine like the others.
 */
const DEEP_BLUE_STEPS = [
  {
    title: 'The river runs',
    expansion: 'river',
    start: 'V0A01V0A11',
    tile: 'V0',
    target: 'V0A21',
    text: 'In the river expansion two optional river dice come each round. A river meets only a river (a route crosses it only on a bridge), and your best river scores a point a square, 3 more when both its ends leave the board. Carry the river along row A: put the straight river on A2.',
    goal: (b) => (b.rivers || []).some((r) => r.squares.length >= 3),
    miss: 'the river should continue from A1 along row A',
    done: 'A river of three squares: 3 points, and 3 more once both its ends face off the board. Expansion dice are optional: End round leaves them unused at no cost.',
    overlays: ['water'],
  },
  {
    title: 'The lake floods',
    expansion: 'lake',
    start: 'L0C30L0D23',
    tile: 'L0',
    target: 'L0D41',
    text: 'In the lake expansion two optional lake dice join the four route dice each round. Water meets only water, and an empty square with lake on three sides floods. Two lake tiles already face D3 from C3 and from D2: put the water along one side on D4, its water facing west, so that a third shore faces D3.',
    goal: (b, answer) => (answer.flooded || []).includes('D3'),
    miss: 'the water should face D3 from D4',
    done: 'D3 flooded: it is lake now and nothing can be placed there. Your smallest lake scores a point a square: here one lake of four squares, 4 points.',
    overlays: ['water'],
  },
];

/** The roll of the lesson on rounds: three A dice and a B die. */
const EXAMPLE_ROLL = ['A1', 'A3', 'A5', 'B1'];

const OVERLAY_CLASSES = ['networks', 'errors', 'centre', 'longest', 'water'];

export async function inkTutorialScreen(root, { table, setTitle }) {
  const deepBlue = new URLSearchParams(location.search).get('lesson') === 'deep-blue' && table.expansions;
  const lesson = new InkLesson(root, table, setTitle, deepBlue ? DEEP_BLUE_STEPS : INK_STEPS);
  return lesson.start();
}

class InkLesson {
  constructor(root, table, setTitle, script = INK_STEPS) {
    this.root = root;
    this.table = table;
    this.setTitle = setTitle;
    this.script = script;
    this.deepBlue = script === DEEP_BLUE_STEPS;
    this.expansion = null;
    this.flooded = [];
    this.step = 0;
    this.board = '';
    this.breakdown = null;
    this.legal = null;
    this.orientation = 0;
    this.busy = false;
    // The round step's dice: which are placed, and the one selected (an index, or null).
    this.used = EXAMPLE_ROLL.map(() => false);
    this.die = null;
    this.legalOf = {};
  }

  /** The tile being placed: the step's, or in the round the selected die's (null: none). */
  get tile() {
    const step = this.script[this.step];
    if (!step) return null;
    return step.round ? (this.die === null ? null : EXAMPLE_ROLL[this.die]) : step.tile;
  }

  /** The round's dice not placed yet (their tiles). */
  unplaced() {
    return EXAMPLE_ROLL.filter((_, i) => !this.used[i]);
  }

  async start() {
    this.build();
    await this.enter(0);
    this.say(`Click or tap a square to place ${tileWords(this.table, this.script[0].tile)}; the server checks it.`, 'info');
    this.onKey = (ev) => this.key(ev);
    document.addEventListener('keydown', this.onKey);
    return () => document.removeEventListener('keydown', this.onKey);
  }

  build() {
    this.steps = h('ol', { class: 'tutorial-steps', 'aria-label': 'Steps' });
    this.lesson = h('section', { class: 'panel lesson', id: 'lesson', 'aria-labelledby': 'step-title' });
    this.message = h('p', { class: 'message', id: 'tutorial-message', role: 'status', 'aria-live': 'polite' });
    this.score = h('section', { class: 'panel tutorial-score', 'aria-label': 'Score of this board' });
    this.view = createBoard(this.table, { label: 'The tutorial board', interactive: true });
    this.view.svg.id = 'tutorial-board';
    this.view.svg.addEventListener('click', (ev) => {
      const sq = this.view.squareAt(ev.clientX, ev.clientY);
      if (sq) this.place(sq);
    });
    fill(this.root, h('section', { class: 'tutorial', id: 'tutorial' },
      h('div', { class: 'tutorial-head' },
        h('h1', {}, this.deepBlue ? 'Learn the Deep Blue expansions' : 'Learn Railroad Ink'),
        h('p', { class: 'muted' }, this.deepBlue
          ? ['The lake and the river, a tile each. The game\'s own rules check every placement, exactly as in a real game. ', h('a', { href: '/tutorial/ink', 'data-link': '' }, 'The base game\'s lesson'), ' comes first.']
          : ['Nine tiles, one at a time, then a round with its dice. The game\'s own rules check every placement, exactly as in a real game. ', h('a', { href: '/tutorial/ink?lesson=deep-blue', 'data-link': '', id: 'deep-blue-lesson' }, 'The Deep Blue expansions'), ' have a short lesson of their own.']),
        this.steps),
      h('div', { class: 'tutorial-layout' },
        // What came of the last move, then the step: together beside the board (above it on a phone).
        h('div', { class: 'lesson-column' }, this.message, this.lesson),
        h('div', { class: 'main-board' }, this.view.svg),
        this.score)));
  }

  /** Asks the engine about the board (and a placement on it): the board after, and where the tiles fit. */
  check(placement, tiles) {
    const body = { board: this.board, tiles: [tiles || []].flat() };
    if (placement) body.placement = placement;
    if (this.expansion) body.expansion = this.expansion;
    return api.check(body);
  }

  async enter(index) {
    this.step = index;
    this.orientation = 0;
    const step = this.script[index];
    // A step of an expansion starts on a board of its own.
    if (step?.start !== undefined) {
      this.board = step.start;
      this.expansion = step.expansion || null;
    }
    try {
      const answer = await this.check(null, step?.round ? this.unplaced() : step?.tile);
      this.breakdown = answer.breakdown;
      this.flooded = answer.flooded || [];
      this.legalOf = answer.legal || {};
      this.legal = step && !step.round ? answer.legal[step.tile] : null;
    } catch (e) {
      this.say(`The server cannot check the board: ${e.message}`, 'error');
    }
    this.render();
    if (step) this.setTitle(`Tutorial step ${index + 1}: ${step.title}`);
  }

  say(text, kind = 'info', detail = null) {
    this.message.textContent = text;
    this.message.className = `message ${kind}`;
    if (detail) this.message.title = detail; else this.message.removeAttribute('title');
  }

  /** After a turn of the tile (R, F, the buttons). */
  turned() {
    this.render();
  }

  key(ev) {
    const step = this.script[this.step];
    if (!step || !this.tile || ev.target instanceof HTMLInputElement || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key.toLowerCase();
    const onBoard = !!ev.target?.dataset?.square && this.view.svg.contains(ev.target);
    const move = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[k];
    if (k === 'r') { ev.preventDefault(); this.rotate(ev.shiftKey ? 3 : 1); }
    else if (k === 'f') { ev.preventDefault(); this.flip(); }
    else if (move && onBoard) {
      ev.preventDefault();
      const sq = this.view.cursor() || 'D3';
      const row = Math.min(6, Math.max(0, 'ABCDEFG'.indexOf(sq[0]) + move[0]));
      const col = Math.min(6, Math.max(0, Number(sq[1]) + move[1]));
      const next = `${'ABCDEFG'[row]}${col}`;
      this.view.setCursor(next, { focus: true });
      this.view.setDrop(next, this.tile, this.orientation, this.legalNow().has(next));
    } else if ((k === 'enter' || k === ' ') && onBoard) {
      ev.preventDefault();
      this.place(this.view.cursor());
    }
  }

  legalNow() {
    return new Set(this.legal ? legalSquares(this.legal[this.orientation]) : []);
  }

  async place(square) {
    const step = this.script[this.step];
    if (!step || this.busy || !square) return;
    if (step.round) {
      await this.placeDie(square);
      return;
    }
    const placement = `${step.tile}${square}${this.orientation}`;
    this.busy = true;
    this.view.setDrop(null);
    try {
      const answer = await this.check(placement, this.script[this.step + 1]?.tile);
      if (step.refusal) {
        this.say(`${capital(tileWords(this.table, step.tile))} fits on ${square} turned this way, so the server accepted it. This step is about a refusal: try ${step.target.slice(2, 4)} as the ghost tile shows.`, 'info');
        return;
      }
      if (!step.goal(answer.breakdown, answer)) {
        this.say(`The rules allow ${tileWords(this.table, step.tile)} on ${square}, but ${step.miss}: try ${step.target.slice(2, 4)}, as the ghost tile shows.`, 'info');
        return;
      }
      this.board = answer.board;
      this.breakdown = answer.breakdown;
      this.flooded = answer.flooded || [];
      this.render();
      await this.advance(step.done || this.exitWords());
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 422) {
        this.say(`The server cannot check it: ${e.message}`, 'error');
        return;
      }
      this.view.flash(square);
      const words = refusalWords(this.table, placement, e.message, e.rule);
      if (step.refusal) {
        await this.enter(this.step + 1);
        this.say(`Refused, as it should be. ${words} ${step.done}`, 'ok', e.message);
        return;
      }
      this.say(words, 'error', e.message);
    } finally {
      this.busy = false;
    }
  }

  /** What the network of the last step scores, from the engine's breakdown and the points table. */
  exitWords() {
    const joined = this.breakdown.networks.filter((n) => n.exits.length > 1);
    const n = joined[0];
    const table = this.table.exit_points;
    return `One network now joins ${n.exits.length} exits (${n.exits.map((e) => e.square).join(' and ')}): ${pointsText(n.points)}. The more exits one network joins, the more it scores: 3 exits ${table[3]}, 4 exits ${table[4]}, up to ${table[table.length - 1]} for all twelve.`;
  }

  /** Selects die `i` of the round (its legal squares lit, its turns by the tile). */
  selectDie(i) {
    if (this.used[i] || this.busy) return;
    if (this.die !== i) this.orientation = 0;
    this.die = i;
    this.legal = this.legalOf[EXAMPLE_ROLL[i]] || null;
    const n = this.legalNow().size;
    const what = capital(tileWords(this.table, this.tile));
    this.say(n
      ? `${what} selected: it fits on ${n} ${n === 1 ? 'square' : 'squares'} turned this way, lit in green.`
      : `${what} fits nowhere turned this way: rotate or flip it.`, 'info');
    this.render();
  }

  /** The round: the selected die placed on `square`, checked by the engine. */
  async placeDie(square) {
    if (this.die === null) {
      this.say('Choose a die first (tap it), then a green square.', 'info');
      return;
    }
    const tile = this.tile;
    const placement = `${tile}${square}${this.orientation}`;
    const rest = EXAMPLE_ROLL.filter((_, i) => !this.used[i] && i !== this.die);
    this.busy = true;
    this.view.setDrop(null);
    try {
      const answer = await this.check(placement, rest);
      this.board = answer.board;
      this.breakdown = answer.breakdown;
      this.flooded = answer.flooded || [];
      this.legalOf = answer.legal || {};
      this.used[this.die] = true;
      this.die = null;
      this.legal = null;
      this.orientation = 0;
      const fits = rest.filter((t) => this.fits(t));
      this.say(`Placed the ${tileWords(this.table, tile)} on ${square} (${openEnds(this.table, tile, Number(placement[4]))}). ${rest.length
        ? (fits.length ? `${rest.length === 1 ? 'One die' : `${rest.length} dice`} to go.` : 'No die left fits anywhere: the round may end. Press End round.')
        : 'Every die is placed: press End round.'}`, 'ok');
      this.render();
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 422) {
        this.say(`The server cannot check it: ${e.message}`, 'error');
        return;
      }
      this.view.flash(square);
      this.say(refusalWords(this.table, placement, e.message, e.rule), 'error', e.message);
    } finally {
      this.busy = false;
    }
  }

  /** Whether `tile` fits anywhere on the board, turned any way (from the engine's answer). */
  fits(tile) {
    return (this.legalOf[tile] || []).some((squares) => squares.length >= 2);
  }

  /** The round step's End round: refused while a die still fits (as in a game); then the lesson is done. */
  async endRound() {
    const waiting = this.unplaced().filter((t) => this.fits(t));
    if (waiting.length) {
      const n = this.unplaced().length;
      this.say(`Not yet: ${n === 1 ? 'a die is' : `${n} dice are`} still to place, and the ${tileWords(this.table, waiting[0])} fits. A round ends once every die is placed, or when none left fits anywhere.`, 'error');
      return;
    }
    await this.advance(this.script[this.step].done);
  }

  async advance(done) {
    await this.enter(this.step + 1);
    this.say(`Well done. ${done}`, 'ok');
    const next = this.lesson.querySelector('#rotate, #finish-links a');
    if (document.activeElement === document.body && next) next.focus({ preventScroll: true });
  }

  render() {
    const index = this.step;
    const step = this.script[index];
    fill(this.steps, this.script.map((s, i) => h('li', {
      class: i < index ? 'done' : i === index ? 'now' : '',
      'aria-current': i === index ? 'step' : null,
    }, h('span', { class: 'step-n', 'aria-hidden': 'true' }, String(i + 1)), s.title)));
    this.steps.append(h('li', { class: index >= this.script.length ? 'now' : '', 'aria-current': index >= this.script.length ? 'step' : null },
      h('span', { class: 'step-n', 'aria-hidden': 'true' }, '✓'), 'Done'));
    this.view.setBoard(this.board, { flooded: this.flooded });
    if (this.breakdown) this.view.setBreakdown(this.breakdown);
    const overlays = new Set(step ? step.overlays : OVERLAY_CLASSES);
    for (const k of OVERLAY_CLASSES) this.view.svg.classList.toggle(`show-${k}`, overlays.has(k));
    if (!step) {
      this.view.setLegal([], '');
      this.view.setHint(null);
      if (this.deepBlue) {
        fill(this.lesson,
          h('h2', { id: 'step-title' }, 'You know the expansions'),
          h('p', {}, 'Lakes flood what they surround and score by your smallest lake; rivers meet only rivers and score by your best one. Both come as two optional dice a round, in a game of six rounds.'),
          h('div', { class: 'row', id: 'finish-links' },
            h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'Play a game'),
            h('a', { class: 'btn', href: '/rules#expansions', 'data-link': '' }, 'Read the rules')));
        this.renderScore();
        this.setTitle('Tutorial done');
        return;
      }
      fill(this.lesson,
        h('h2', { id: 'step-title' }, 'You know the rules'),
        h('p', {}, `Exits and the networks joining them, connections, refusals, errors, the centre, the longest routes, the dice, the specials and End round: that is all of Railroad Ink. This board would score ${pointsText(this.breakdown?.score.advanced ?? 0)}.`),
        h('div', { class: 'row', id: 'finish-links' },
          h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'Play a game'),
          h('a', { class: 'btn', href: '/rules', 'data-link': '' }, 'Read the rules'),
          h('a', { class: 'btn', href: '/tutorial/metro', 'data-link': '' }, 'Learn Metro')));
      this.renderScore();
      this.setTitle('Tutorial done');
      return;
    }
    if (step.round) {
      this.renderRound(index, step);
      return;
    }
    const legal = this.legalNow();
    this.view.setLegal([...legal], tileWords(this.table, step.tile));
    this.view.setHint([step.target]);
    const focused = document.activeElement?.id;
    fill(this.lesson,
      h('p', { class: 'step-count' }, `Step ${index + 1} of ${this.script.length}`),
      h('h2', { id: 'step-title' }, step.title),
      h('p', { id: 'step-text' }, step.text),
      h('div', { class: 'preview', dataset: { orientation: this.orientation } },
        h('div', { class: 'preview-tile', title: `${step.tile}, orientation ${this.orientation}` }, tileSvg(this.table, step.tile, this.orientation)),
        h('div', { class: 'preview-info' },
          h('strong', {}, capital(tileWords(this.table, step.tile))),
          h('span', { class: 'muted small', id: 'preview-ends' }, `${capital(openEnds(this.table, step.tile, this.orientation))} · fits on ${legal.size} ${legal.size === 1 ? 'square' : 'squares'}`)),
        turnButtons(this)),
      h('p', { class: 'muted small' }, 'The ghost tile shows where and how; the green squares are where the tile fits turned this way. Click or tap a square', h('span', { class: 'keys-help' }, ', or Tab to the board, move with the arrow keys and press Enter'), '.'));
    if (focused && !this.lesson.contains(document.activeElement)) this.lesson.querySelector(`#${focused}`)?.focus({ preventScroll: true });
    this.renderScore();
  }

  /**
   * The step about rounds: the roll's four dice to place (the one selected with its turns and
   * its squares lit), the six specials, and End round.
   */
  renderRound(index, step) {
    const legal = this.legalNow();
    this.view.setLegal([...legal], this.tile ? tileWords(this.table, this.tile) : '');
    this.view.setHint(null);
    const face = (tile) => h('span', { class: `mini-die die-${tile[0]}`, title: tileWords(this.table, tile) }, tileSvg(this.table, tile, 0, { 'aria-label': tileWords(this.table, tile) }));
    const specials = this.table.tiles.filter((t) => t.source === 'S').map((t) => t.tile);
    const dice = EXAMPLE_ROLL.map((tile, i) => h('button', {
      class: `choice choice-die${this.die === i ? ' selected' : ''}${this.used[i] ? ' used unavailable' : ''}`,
      type: 'button',
      'aria-pressed': this.die === i ? 'true' : 'false',
      'aria-label': `Die ${tile[0]}: ${tileWords(this.table, tile)}${this.used[i] ? ', placed' : ''}`,
      dataset: { index: i, tile },
      disabled: this.used[i],
      onclick: () => this.selectDie(i),
    }, dieFace(this.table, tile, this.used[i]), this.used[i] ? h('span', { class: 'check', 'aria-hidden': 'true' }, '✓') : null));
    const focused = document.activeElement?.id;
    fill(this.lesson,
      h('p', { class: 'step-count' }, `Step ${index + 1} of ${this.script.length}`),
      h('h2', { id: 'step-title' }, step.title),
      h('p', { id: 'step-text' }, step.text),
      h('div', { class: 'dice-row tutorial-dice', id: 'example-roll', role: 'group', 'aria-label': 'The roll' }, dice),
      this.tile
        ? h('div', { class: 'preview', dataset: { orientation: this.orientation } },
          h('div', { class: 'preview-tile' }, tileSvg(this.table, this.tile, this.orientation)),
          h('div', { class: 'preview-info' },
            h('strong', {}, capital(tileWords(this.table, this.tile))),
            h('span', { class: 'muted small', id: 'preview-ends' }, `${capital(openEnds(this.table, this.tile, this.orientation))} · fits on ${legal.size} ${legal.size === 1 ? 'square' : 'squares'}`)),
          turnButtons(this))
        : null,
      h('p', { class: 'muted small' }, `Besides the dice, one of the six specials may be added in any round (each once a game, ${this.table.specials_per_game} at most):`),
      h('span', { class: 'mini-dice tutorial-specials', id: 'example-specials' }, specials.map(face)),
      h('p', { class: 'muted small' }, 'The round ends when you press End round: the game refuses while a die still fits.'),
      h('button', { class: 'btn primary', id: 'end-round', type: 'button', onclick: () => this.endRound() }, 'End round'));
    if (focused && !this.lesson.contains(document.activeElement)) this.lesson.querySelector(`#${focused}`)?.focus({ preventScroll: true });
    this.renderScore();
  }

  renderScore() {
    const sc = this.breakdown?.score;
    if (!sc) return;
    const row = (label, value, id) => h('tr', { id }, h('th', {}, label), h('td', {}, value));
    fill(this.score,
      h('h2', {}, 'Score of this board'),
      h('table', { class: 'breakdown' }, h('tbody', {},
        row('Exits', sc.exits, 'score-exits'),
        row('Centre squares', sc.centre, 'score-centre'),
        row('Errors', sc.errors ? `−${sc.errors}` : '0', 'score-errors'),
        row('Longest highway', sc.longest_highway, 'score-highway'),
        row('Longest railway', sc.longest_railway, 'score-railway'),
        expansionRow(this.expansion, this.breakdown, sc),
        h('tr', { class: 'total' }, h('th', {}, 'Total'), h('td', {}, num(sc.advanced))))),
      h('p', { class: 'muted small' }, 'The engine scores the board after every tile, as at the end of a game.'));
  }
}

Object.assign(InkLesson.prototype, turning);
