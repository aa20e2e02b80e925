// The score histogram of a challenge: an SVG the page draws from the leaderboard's `histogram`.

import { plotArea } from '../core/chart.js';
import { h, s } from '../core/dom.js';
import { num, plural } from './words.js';

const NICE = [1, 2, 3, 4, 5, 10, 15, 20, 25, 50, 100, 200, 250, 500, 1000];

/** Score buckets for ~10–20 bars: [{from, to, count}], ascending. */
export function buckets(histogram, extra = []) {
  const scores = histogram.map((b) => b.score).concat(extra.filter((x) => Number.isFinite(x)));
  if (!scores.length) return [];
  let min = Math.min(...scores);
  let max = Math.max(...scores);
  // At least ten scores wide, so that a few scores do not make a few wide bars.
  if (max - min + 1 < 10) {
    const pad = 10 - (max - min + 1);
    min -= Math.floor(pad / 2);
    max += Math.ceil(pad / 2);
  }
  const span = max - min + 1;
  const width = NICE.find((w) => Math.ceil(span / w) <= 18) || Math.ceil(span / 18);
  const lo = Math.floor(min / width) * width;
  const n = Math.floor((max - lo) / width) + 1;
  const out = Array.from({ length: n }, (_, i) => ({ from: lo + i * width, to: lo + (i + 1) * width - 1, count: 0 }));
  for (const b of histogram) out[Math.floor((b.score - lo) / width)].count += b.count;
  return out;
}

function rangeLabel(b) {
  if (b.from === b.to) return num(b.from);
  return b.from < 0 ? `${num(b.from)} to ${num(b.to)}` : `${b.from}–${b.to}`;
}

/** The computer's score on the chart: a dashed line, and its label under the axis, kept inside the chart. */
function computerMark(label, x, { W, left, right, top, plotH }) {
  // Half the label's width, about (12px text).
  const half = Math.max(40, label.length * 3.6);
  return s('g', { class: 'computer-mark' },
    s('line', { x1: x, x2: x, y1: top - 4, y2: top + plotH }),
    s('text', { x: Math.min(Math.max(x, left + half), W - right - half), y: top + plotH + 32, 'text-anchor': 'middle' }, label));
}

/**
 * The label of your bar, over its middle (`x`, `y`), inside the plot (`from`–`to`), and never
 * across the computer's line (at `line`): beside it then, on the side of your bar.
 */
function youMark(text, { x, y, line, from, to }) {
  // About 9 units a character at the label's size, and a little room either side.
  const half = (text.length * 9) / 2 + 4;
  let at = Math.min(Math.max(x, from + half), to - half);
  let anchor = 'middle';
  if (line !== null && Math.abs(line - at) < half + 4) {
    const leftSide = x < line || (x === line && line - from > to - line);
    if (leftSide && line - 6 - 2 * half >= from - 4) {
      at = line - 6;
      anchor = 'end';
    } else if (line + 6 + 2 * half <= to + 4) {
      at = line + 6;
      anchor = 'start';
    } else {
      at = line - 6;
      anchor = 'end';
    }
  }
  return s('g', { class: 'you-mark' }, s('text', { x: at, y, 'text-anchor': anchor }, text));
}

/**
 * The day's score distribution as a bar chart, your bar marked and labelled, the computer's
 * score as a dashed line (named `computerName`): a figure with an SVG (role img, its summary as
 * the label) and the summary in words under it.
 */
export function scoreHistogram(histogram, { you = null, computer = null, computerName = 'the computer', title = 'Scores' } = {}) {
  const hist = (histogram || []).filter((b) => b.count > 0);
  const total = hist.reduce((n, b) => n + b.count, 0);
  if (!total) {
    return h('figure', { class: 'histogram empty' }, h('p', { class: 'muted' }, 'No finished scores yet: the chart appears with the first.'));
  }
  const bars = buckets(hist, [you, computer]);
  const area = plotArea(440, 230, { left: 30, right: 8, top: 30, bottom: 40 });
  const { W, H, left, right, top, plotW, plotH } = area;
  const step = plotW / bars.length;
  const peak = Math.max(...bars.map((b) => b.count));
  const y = (count) => top + plotH - (count / peak) * plotH;
  const mine = you === null || you === undefined ? -1 : bars.findIndex((b) => you >= b.from && you <= b.to);
  const everyLabel = Math.ceil(bars.length / 9);
  const single = bars[0].from === bars[0].to;
  const scoreX = (score) => {
    const i = bars.findIndex((b) => score >= b.from && score <= b.to);
    const b = bars[i];
    return left + step * (i + (score - b.from + 0.5) / (b.to - b.from + 1));
  };
  const most = bars.reduce((a, b) => (b.count > a.count ? b : a));
  const higher = you === null || you === undefined ? 0 : hist.filter((b) => b.score > you).reduce((n, b) => n + b.count, 0);
  const lowest = hist[0].score;
  const highest = hist[hist.length - 1].score;
  const summary = [
    lowest === highest ? `${total === 1 ? '1 score' : `${total} scores, all`}: ${num(lowest)}.` : `${plural(total, 'score')} from ${num(lowest)} to ${num(highest)}.`,
    total > 2 ? `Most players scored ${rangeLabel(most)} (${most.count}).` : '',
    mine >= 0 ? `You scored ${num(you)}: ${higher === 0 ? 'nobody scored more' : `${plural(higher, 'player')} scored more`}.` : '',
    computer !== null && computer !== undefined ? `${computerName.charAt(0).toUpperCase()}${computerName.slice(1)} scored ${num(computer)}.` : '',
  ].filter(Boolean).join(' ');
  const svg = s('svg', {
    class: 'histogram-svg', viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': `${title}: ${summary}`,
    preserveAspectRatio: 'xMidYMid meet',
  },
  area.axis(),
  s('text', { class: 'axis-label', x: left - 6, y: top + 4, 'text-anchor': 'end' }, peak),
  s('text', { class: 'axis-label', x: left - 6, y: top + plotH, 'text-anchor': 'end' }, 0),
  bars.map((b, i) => {
    const x = left + i * step + step * 0.1;
    const barH = top + plotH - y(b.count);
    return s('g', { class: `bar${i === mine ? ' you' : ''}`, dataset: { from: b.from, to: b.to, count: b.count } },
      s('title', {}, `${rangeLabel(b)}: ${plural(b.count, 'player')}`),
      s('rect', { x, y: y(b.count) - (b.count && barH < 2 ? 2 - barH : 0), width: step * 0.8, height: b.count ? Math.max(barH, 2) : 0, rx: 2 }),
      // A bar of one score is labelled under its middle; wider bars on a scale, their edges.
      single && (i === mine || (i % everyLabel === 0 && (mine < 0 || Math.abs(i - mine) >= Math.min(everyLabel, 2))))
        ? s('text', { class: 'tick', x: x + step * 0.4, y: top + plotH + 16, 'text-anchor': 'middle' }, num(b.from))
        : null);
  }),
  single ? null : bars.concat([{ from: bars[bars.length - 1].to + 1 }]).map((b, i) => (i % everyLabel === 0
    ? s('g', { class: 'edge-tick' },
      s('line', { class: 'axis', x1: left + i * step, x2: left + i * step, y1: top + plotH, y2: top + plotH + 4 }),
      s('text', { class: 'tick', x: left + i * step, y: top + plotH + 16, 'text-anchor': 'middle' }, num(b.from)))
    : null)),
  computer !== null && computer !== undefined ? computerMark(`${computerName.replace(/^the /, '')} ${num(computer)}`, scoreX(computer), area) : null,
  mine >= 0 ? youMark(`You: ${num(you)}`, {
    x: left + mine * step + step / 2,
    y: Math.max(y(bars[mine].count) - 8, 14),
    line: computer !== null && computer !== undefined ? scoreX(computer) : null,
    from: left,
    to: W - right,
  }) : null);
  return h('figure', { class: 'histogram' }, svg, h('figcaption', { class: 'muted small' }, summary));
}
