// `/games`: the most recently finished games, every kind, newest first, each with its replay
// (GET /api/games?finished=true).

import { h, fill, nameEl } from '../core/dom.js';
import { gameName, gameOf, gamePath } from '../core/games.js';
import { pagedList } from '../core/paging.js';
import { when } from '../core/replay.js';
import { getJson } from '../core/request.js';
import { pointsText } from '../core/words.js';

export async function recentGamesScreen(root, { setTitle }) {
  setTitle('Recent games');
  const games = pagedList({
    attrs: { class: 'recent-list', id: 'recent-games' },
    older: 'Older games',
    empty: 'No finished games yet. Play one, and its replay will be here.',
    page: async (before) => {
      const q = new URLSearchParams({ finished: 'true', limit: '20' });
      if (before !== null) q.set('before', String(before));
      const page = await getJson(`/api/games?${q}`);
      return { items: page.games, next: page.next };
    },
    item: entry,
  });
  fill(root, h('section', { class: 'recent' },
    h('div', { class: 'viewer-head' },
      h('div', {}, h('h1', {}, 'Recent games'),
        h('p', { class: 'lead' }, 'Finished games on this server, newest first. Open one to replay it action by action.')),
      h('a', { class: 'btn primary', href: '/', 'data-link': '' }, 'New game')),
    games.status, games.list, games.more));
  await games.load();
  return () => {};
}

function entry(g) {
  const ranked = [...g.players].sort((a, b) => b.score - a.score);
  return h('li', { class: 'recent-game', dataset: { id: g.id, kind: g.kind } },
    h('div', { class: 'recent-title' },
      h('span', { class: `game-chip game-${g.kind}` }, gameName(g.kind)),
      h('span', { class: 'muted small' }, `${gameOf(g.kind)?.modes?.[g.mode] || `${g.players.length} players`} · finished ${when(g.finished)}`)),
    h('ol', { class: 'recent-players' }, ranked.map((p) => h('li', { class: g.winners.includes(p.seat) ? 'won' : '' },
      h('span', { class: 'name' }, g.winners.includes(p.seat) && g.players.length > 1 ? '★ ' : null, nameEl(p.name)),
      h('span', { class: 'pts' }, pointsText(p.score))))),
    h('a', { class: 'btn small replay-link', href: gamePath(g.kind, g.id, 'replay'), 'data-link': '' }, 'Replay'));
}
