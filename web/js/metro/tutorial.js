// The Metro tutorial (`/tutorial/metro`): a real Metro game against the computer with a lesson
// beside it (draw, keep, place, the centre, lines). Every move is checked by the engine through
// the game's own endpoints: the page holds the steps and the words, never a rule.

import { h, fill } from '../core/dom.js';
import { isHeldGame } from '../core/seats.js';
import { metroApi } from './api.js';
import { metroScreen } from './game.js';

/** The seed of the Metro lesson's game (any seed works: the lesson follows the game). */
const METRO_SEED = '2024';

/**
 * The Metro lesson's steps. Each is done when the game's state, as the server sends it, shows
 * it (`done(state, lesson)`); a step with `refusal` is done when the server refuses a move.
 */
const METRO_STEPS = [
  {
    title: 'Draw',
    text: 'On your turn you draw a tile from the deck. Press “Draw a tile” (or D).',
    done: (st) => !!st.you?.drawn,
  },
  {
    title: 'Keep',
    text: 'You may place the tile you drew, or keep it in your hand for later and draw another, which you must then place. Keep this one: press “Keep it and draw another” (or K).',
    done: (st) => !!st.you?.hand,
  },
  {
    title: 'The centre',
    text: 'The four squares in the middle are the central stations: no tile may go there. Try it anyway: click one of them (or drag your drawn tile there). The server refuses it and says why.',
    refusal: true,
  },
  {
    title: 'Place',
    text: 'A tile goes on any green square: on the edge of the board, or next to a tile already there. Tiles are never turned. Place the tile you drew on a green square.',
    done: (st) => st.moves.some((m) => m.action === 'place' && m.seat === st.you?.seat),
  },
  {
    title: 'Your hand',
    text: 'Now the computer plays its turn. On yours, place the tile you kept in your hand on a green square, or draw a new one instead (the kept one stays in hand).',
    done: (st) => st.moves.filter((m) => m.action === 'place' && m.seat === st.you?.seat).length >= 2,
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
    this.element = h('section', { class: 'panel lesson metro-lesson', id: 'lesson', 'aria-labelledby': 'step-title' });
    this.steps = h('ol', { class: 'tutorial-steps', 'aria-label': 'Steps' });
  }

  /** Called by the game with each new state. */
  onState(st) {
    const step = METRO_STEPS[this.step];
    if (step?.done && step.done(st)) {
      this.step += 1;
      this.onState(st);
      return;
    }
    this.render();
  }

  /** Called by the game when the server refuses a move, with its words (said in the lesson too, in view). */
  onRefusal(e, words) {
    if (METRO_STEPS[this.step]?.refusal) {
      this.step += 1;
      this.refused = words || true;
      this.render();
    }
  }

  render() {
    const index = this.step;
    const step = METRO_STEPS[index];
    fill(this.steps, METRO_STEPS.map((s, i) => h('li', {
      class: i < index || (s.finish && this.finished) ? 'done' : i === index ? 'now' : '',
      'aria-current': i === index ? 'step' : null,
    }, h('span', { class: 'step-n', 'aria-hidden': 'true' }, String(i + 1)), s.title)));
    this.setTitle(`Metro tutorial step ${index + 1}: ${step.title}`);
    fill(this.element,
      h('div', { class: 'lesson-head' },
        h('h1', {}, 'Learn Metro'),
        this.steps),
      h('p', { class: 'step-count' }, `Step ${index + 1} of ${METRO_STEPS.length}`),
      h('h2', { id: 'step-title' }, step.title),
      index === 3 && this.refused ? h('p', { class: 'lesson-note', id: 'lesson-refusal' }, 'Refused, as it should be. ', this.refused === true ? null : this.refused) : null,
      h('p', { id: 'step-text' }, step.text),
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
  }
}
