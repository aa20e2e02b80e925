// The challenges' requests: today's challenges, the past ones page by page, a challenge with
// its leaderboard, playing one, and making a friend challenge from a finished game. Each answer
// carries the server's time, which the page's clocks follow (the server's clock may be fixed,
// for tests).

import { request, viewAsPlayer } from '../core/request.js';

/** Server time minus this device's time (the server's clock may be fixed, for tests). */
let skew = null;

function learnClock(now) {
  const t = Date.parse(now);
  if (Number.isFinite(t)) skew = t - Date.now();
}

/** The time now on the server's clock, as well as this page knows it. */
export function serverNow() {
  return Date.now() + (skew ?? 0);
}

export const challengeApi = {
  async current() {
    const answer = await viewAsPlayer('/api/challenges/current');
    learnClock(answer.now);
    return answer;
  },
  async list({ before, limit = 20 } = {}) {
    const q = new URLSearchParams({ limit: String(limit) });
    if (before) q.set('before', before);
    const answer = await request('GET', `/api/challenges?${q}`);
    learnClock(answer.now);
    return answer;
  },
  async get(id, { around, limit } = {}) {
    const q = new URLSearchParams();
    if (around) q.set('around', around);
    if (limit) q.set('limit', String(limit));
    const query = q.toString();
    const answer = await viewAsPlayer(`/api/challenges/${encodeURIComponent(id)}${query ? `?${query}` : ''}`);
    learnClock(answer.now);
    return answer;
  },
  play(id, token) {
    return request('POST', `/api/challenges/${encodeURIComponent(id)}/play`, { token });
  },
  /** The player's result to share: `{text, url}` (409 until they have finished it). */
  share(id, token) {
    return request('GET', `/api/challenges/${encodeURIComponent(id)}/share`, { token });
  },
  /** A new practice game on a closed challenge's draws. */
  practice(id, token) {
    return request('POST', `/api/challenges/${encodeURIComponent(id)}/practice`, { token });
  },
  friend(from, token, seatToken) {
    const body = { kind: 'friend', from };
    if (seatToken) body.seat_token = seatToken;
    return request('POST', '/api/challenges', { token, body });
  },
};
