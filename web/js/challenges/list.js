// `/challenges`: today's challenges, then the closed ones, newest first, page by page.

import { h, fill } from '../core/dom.js';
import { gameName } from '../core/games.js';
import { pagedList } from '../core/paging.js';
import { challengeApi } from './api.js';
import { challengeCards, facts } from './cards.js';
import { challengeTitle, ordinal, plural } from './words.js';

/** `/challenges`: today's challenges, then the closed ones, newest first, page by page. */
export async function challengesScreen(root, { navigate, setTitle }) {
  setTitle('Challenges');
  const today = h('section', { class: 'challenges-today', hidden: true, 'aria-labelledby': 'today-title' });
  const past = pagedList({
    attrs: { class: 'past-list', id: 'past-challenges' },
    older: 'Older challenges',
    empty: 'No challenge has closed yet. Today\'s leaderboards join this list tomorrow.',
    page: async (before) => {
      const page = await challengeApi.list({ before });
      return { items: page.challenges, next: page.next };
    },
    item: pastItem,
  });
  fill(root, h('section', { class: 'challenges' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Challenges'),
        h('p', { class: 'lead' }, 'Every day and every week everyone plays the same dice, and every day the same Metro deck. Each leaderboard stays.'))),
    today,
    h('section', { 'aria-labelledby': 'past-title' },
      h('h2', { id: 'past-title' }, 'Past challenges'),
      past.status, past.list, past.more)));
  const stopCards = challengeCards(today, { navigate, pastLink: false });
  await past.load();
  return stopCards;
}

function pastItem(c) {
  return h('li', { class: 'past-challenge', dataset: { challenge: c.id } },
    h('span', { class: `game-chip game-${c.game}` }, gameName(c.game)),
    h('a', { class: 'past-title', href: `/challenges/${c.id}`, 'data-link': '' }, challengeTitle(c)),
    facts(c, { withTime: false }),
    c.you?.finished ? h('span', { class: 'small you-rank' }, c.you.rank ? `You: ${ordinal(c.you.rank)}, ${plural(c.you.score, 'point')}` : `You: unranked, ${plural(c.you.score, 'point')}`) : null);
}
