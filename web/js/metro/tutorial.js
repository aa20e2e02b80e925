// The Metro tutorial (`/tutorial/metro`): a real Metro game against the computer with a lesson
// beside it (draw, keep, place, the centre, lines). Every move is checked by the engine through
// the game's own endpoints: the page holds the steps and the words, never a rule.

import { h, fill } from '../core/dom.js';
import { reducedMotion } from '../core/motion.js';
import { isHeldGame } from '../core/seats.js';
import { metroApi } from './api.js';
import { metroScreen } from './game.js';

/** The seed of the Metro lesson's game (any seed works: the lesson follows the game). */
const METRO_SEED = '2024';

/** How many tiles the lesson's player has placed so far. */
function placedBy(st) {
  return st.moves.filter((m) => m.action === 'place' && m.seat === st.you?.seat).length;
}

/** Whether the player placed a tile since step `index` began. */
function placedSince(st, lesson, index) {
  return placedBy(st) > (lesson.starts[index] ?? 0);
}

const KEEP = 'Keep this one: press “Keep it and draw another” (or K).';

/**
 * The Keep step's words for the moment: the player may have placed the tile drawn instead, and
 * then keeps one on a later turn (draw first, on their own turn).
 */
function keepText(st) {
  const you = st.you;
  const intro = 'You may place the tile you drew, or keep it in your hand for later and draw another, which you must then place.';
  if (you?.your_turn && you.drawn && st.phase === 'drawn') return `${intro} ${KEEP}`;
  if (you?.your_turn) return `${intro} Draw a tile (press “Draw a tile”, or D), then keep it.`;
  return `${intro} The computer plays its turn now. On yours, draw a tile, then keep it.`;
}

/**
 * The Metro lesson's steps. Each is done when the game's state, as the server sends it, shows
 * it (`done(state, lesson)`); a step with `refusal` is done when the server refuses a move. A
 * step the player goes past another way (`passed(state, lesson)`: they placed the tile instead
 * of trying what it asks) moves on too, saying so (`passedNote`); `note(state, lesson)` is what
 * the step says of a move it did not ask for. `text` may depend on the state.
 */
const METRO_STEPS = [
  {
    title: 'Draw',
    text: 'On your turn you draw a tile from the deck. Press “Draw a tile” (or D).',
    done: (st) => !!st.you?.drawn || !!st.you?.hand || placedBy(st) > 0,
  },
  {
    title: 'Keep',
    text: keepText,
    done: (st) => !!st.you?.hand,
    note: (st, lesson) => (placedSince(st, lesson, 1)
      ? 'You placed the tile you drew: one way to play a turn. The other is to keep it for later.'
      : null),
  },
  {
    title: 'The centre',
    text: 'The four squares in the middle are the central station: no tile may go there. Try it anyway: tap or click one of them (or drag your drawn tile there). The game refuses it and says why.',
    refusal: true,
    passed: (st, lesson) => placedSince(st, lesson, 2),
    passedNote: 'You placed your tile before trying the centre: fine. No tile ever goes on the four middle squares.',
  },
  {
    title: 'Place',
    text: 'A tile goes on any green square: on the edge of the board, or next to a tile already there. Tiles are never turned. Place the tile you drew on a green square.',
    // Placed since the centre was tried (or passed by).
    done: (st, lesson) => placedSince(st, lesson, 2),
  },
  {
    title: 'Your hand',
    text: (st) => `${st.you?.your_turn ? 'Your turn again:' : 'Now the computer plays its turn. On yours,'} place the tile you kept in your hand on a green square, or draw a new one instead (the kept one stays in hand).`,
    done: (st, lesson) => placedSince(st, lesson, 4),
  },
  {
    title: 'Lines',
    text: 'Each of your stations around the edge (your colour) starts a line that follows the tracks. A line that reaches another station scores a point for every tile it crosses; a line that ends at a central station scores double. Point at a station, or tap it, to see its line. Play on as long as you like.',
    finish: true,
  },
];

/** Where this browser keeps its lesson game, so that coming back does not make another. */
const LESSON_KEY = 'tracklayer:metro:lesson';

/**
 * The lesson game this browser made before, if nobody has moved in it yet (the lesson's steps
 * start from the first draw, so a game already begun gets a fresh one).
 */
async function untouchedLesson() {
  let kept;
  try {
    kept = JSON.parse(localStorage.getItem(LESSON_KEY) || 'null');
  } catch {
    return null;
  }
  if (!isHeldGame(kept) || !kept.seats[0]?.token) return null;
  try {
    const state = await metroApi.state(kept.id, kept.seats[0].token);
    return state.moves.length === 0 && !state.finished ? kept : null;
  } catch {
    return null;
  }
}

export async function metroTutorialScreen(root, { navigate, setTitle }) {
  fill(root, h('p', { class: 'loading' }, 'Setting up the lesson…'));
  let held = await untouchedLesson();
  if (!held) {
    try {
      const created = await metroApi.create([{ kind: 'human', name: 'You' }, { kind: 'computer', name: 'Computer', level: 'random' }], METRO_SEED);
      held = { id: created.id, seats: created.seats };
    } catch (e) {
      fill(root, h('section', { class: 'card narrow' }, h('h1', {}, 'The lesson cannot start'), h('p', {}, e.message)));
      return null;
    }
    try {
      localStorage.setItem(LESSON_KEY, JSON.stringify(held));
    } catch {
      // Storage full or refused: the lesson still works, a visit later makes a new game.
    }
  }
  const lesson = new MetroLesson(setTitle);
  return metroScreen(root, held.id, { navigate, held, lesson });
}

class MetroLesson {
  constructor(setTitle) {
    this.setTitle = setTitle;
    this.step = 0;
    // How many tiles the player had placed when each step began.
    this.starts = [];
    // What the lesson says of how the last step was done: {step, parts}.
    this.note = null;
    this.state = null;
    this.element = h('section', { class: 'panel lesson metro-lesson', id: 'lesson', 'aria-labelledby': 'step-title' });
    this.steps = h('ol', { class: 'tutorial-steps', 'aria-label': 'Steps' });
  }

  /** Called by the game with each new state: moves on past every step it shows done or passed. */
  onState(st) {
    this.state = st;
    let passed = null;
    for (;;) {
      const step = METRO_STEPS[this.step];
      this.starts[this.step] ??= placedBy(st);
      if (step.done?.(st, this)) {
        this.next(st);
      } else if (step.passed?.(st, this)) {
        passed = step.passedNote;
        this.next(st);
      } else {
        break;
      }
    }
    // A step passed by is said on the step this state leads to (the next may be done at once).
    if (passed) this.note = { step: this.step, parts: passed };
    this.render();
  }

  /** Goes on to the next step. */
  next(st) {
    this.step += 1;
    this.starts[this.step] = placedBy(st);
  }

  /** Called by the game when the server refuses a move, with its words (said in the lesson too, in view). */
  onRefusal(e, words) {
    if (!METRO_STEPS[this.step]?.refusal) return;
    this.next(this.state);
    this.note = { step: this.step, parts: ['Refused, as it should be. ', words || null], refusal: true };
    this.render();
  }

  render() {
    const index = this.step;
    const step = METRO_STEPS[index];
    const st = this.state;
    fill(this.steps, METRO_STEPS.map((s, i) => h('li', {
      class: i < index || (s.finish && this.finished) ? 'done' : i === index ? 'now' : '',
      'aria-current': i === index ? 'step' : null,
    }, h('span', { class: 'step-n', 'aria-hidden': 'true' }, String(i + 1)), s.title)));
    this.setTitle(`Metro tutorial step ${index + 1}: ${step.title}`);
    const note = this.note?.step === index ? this.note : null;
    const aside = step.note?.(st, this);
    fill(this.element,
      h('div', { class: 'lesson-head' },
        h('h1', {}, 'Learn Metro'),
        this.steps),
      h('p', { class: 'step-count' }, `Step ${index + 1} of ${METRO_STEPS.length}`),
      h('h2', { id: 'step-title' }, step.title),
      note ? h('p', { class: 'lesson-note', id: note.refusal ? 'lesson-refusal' : 'lesson-passed' }, note.parts) : null,
      aside ? h('p', { class: 'lesson-note', id: 'lesson-aside' }, aside) : null,
      h('p', { id: 'step-text' }, typeof step.text === 'function' ? step.text(st, this) : step.text),
      step.finish && this.finished ? h('p', { class: 'lesson-note', id: 'lesson-done' }, 'You know the rules of Metro. The game goes on until all 60 tiles are placed; the highest score wins.') : null,
      step.finish
        ? h('div', { class: 'row', id: 'finish-links' },
          this.finished ? null : h('button', {
            class: 'btn primary',
            id: 'finish',
            type: 'button',
            onclick: () => { this.finished = true; this.render(); this.element.querySelector('#new-metro')?.focus(); },
          }, 'I have got it'),
          h('a', { class: 'btn', id: 'new-metro', href: '/', 'data-link': '' }, 'Start a real game'),
          h('a', { class: 'btn', href: '/rules/metro', 'data-link': '' }, 'Read the rules'))
        : null);
    if (this.shown !== undefined && this.shown !== index) this.bringIntoView();
    this.shown = index;
  }

  /**
   * A new step's words in view: the page scrolled down to the board (on a phone) comes back up
   * to the lesson, which a compact layout keeps above the board's first rows.
   */
  bringIntoView() {
    if (this.element.getBoundingClientRect().top >= 0) return;
    this.element.scrollIntoView({ block: 'start', behavior: reducedMotion() ? 'auto' : 'smooth' });
  }
}
