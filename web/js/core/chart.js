// The frame of an SVG chart, shared by the charts of scores: its size, its margins, the plot
// inside them and the x axis along the plot's foot.

import { s } from './dom.js';

/**
 * A chart `width` × `height` with the given margins: the plot's place (`left`, `top`) and size
 * (`plotW`, `plotH`), and `axis()`, the x axis as an SVG line.
 */
export function plotArea(width, height, { left, right, top, bottom }) {
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  return {
    W: width,
    H: height,
    left,
    right,
    top,
    plotW,
    plotH,
    axis: () => s('line', { class: 'axis', x1: left, y1: top + plotH, x2: width - right, y2: top + plotH }),
  };
}
