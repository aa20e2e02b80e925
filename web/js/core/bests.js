// Personal bests: the end screen's "New best" and the words for a way of playing a game.

import { h, fill } from './dom.js';
import { request, storedPlayer } from './request.js';

/** A way of playing as the records name it (`solo`, `computer:strong`, …), in words. */
export function wayText(mode) {
  if (mode.startsWith('computer:')) return `Against the computer (${mode.slice('computer:'.length)})`;
  return {
    solo: 'Solo', online: 'Online', challenge: 'Challenges', practice: 'Practice', seats: 'Games',
  }[mode] || mode;
}

/** A record's game as a person names it: "Railroad Ink", "Railroad Ink, lake expansion". */
export function recordGameText(gameName, record) {
  return record.variant ? `${gameName}, ${record.variant} expansion` : gameName;
}

/**
 * "New best" on a finished game's end screen, when this device's player sat in it and it beat
 * their best of the same game played the same way (their first such game sets a best without
 * beating one). Fills itself once the player's records arrive; stays empty otherwise.
 */
export function newBestNote(gameId) {
  const box = h('p', { class: 'new-best', id: 'new-best', 'aria-live': 'polite', hidden: true });
  const me = storedPlayer();
  if (!me) return box;
  // Asked with the player's own token: their records name every game of theirs (a challenge
  // game's too, which others see only once it has closed).
  request('GET', '/api/players/me', { token: me.token }).then((profile) => {
    const record = (profile.bests || []).find((b) => b.best_game === gameId);
    if (!record || record.previous === null || record.previous === undefined) return;
    const way = [wayText(record.mode).toLowerCase(), record.variant ? `${record.variant} expansion` : null].filter(Boolean).join(', ');
    fill(box, h('strong', {}, 'New best!'), ` ${record.best}, up from ${record.previous}: your best of ${record.games} games (${way}).`);
    box.hidden = false;
  }).catch(() => { /* no records: nothing to say */ });
  return box;
}
