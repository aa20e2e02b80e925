// Small helpers for building HTML and SVG elements.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') el.setAttribute('class', value);
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? '' : value);
  }
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h('button', {class: 'x', onclick}, 'text', child). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  append(el, children);
  return el;
}

/**
 * The [row, column] of the square under a point on the screen, in an SVG whose user space is a
 * grid of `n`×`n` squares `cell` units wide from its origin; null off the grid.
 */
export function gridSquareAt(svg, clientX, clientY, cell, n) {
  const ctm = svg.getScreenCTM();
  if (!ctm) return null;
  const pt = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
  const col = Math.floor(pt.x / cell);
  const row = Math.floor(pt.y / cell);
  return row < 0 || row >= n || col < 0 || col >= n ? null : [row, col];
}

/** Plays a CSS animation class once more on an element (a refused square's shake). */
export function flashClass(el, name, ms = 900) {
  if (!el) return;
  el.classList.remove(name);
  void el.getBoundingClientRect();
  el.classList.add(name);
  setTimeout(() => el.classList.remove(name), ms);
}

/** A colour sample (set through the CSSOM: the pages' CSP allows no inline style). */
export function swatch(colour) {
  const el = h('span', { class: 'swatch' });
  el.style.background = colour;
  return el;
}

/** Replaces an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A person's name as shown on a page: in its own bidi-isolated element (<bdi>), so that a
 * right-to-left name cannot turn the text around it ("Ann placed cbcb at 05") around.
 */
export function nameEl(name, attrs = {}) {
  return h('bdi', { ...attrs, class: attrs.class ? `pname ${attrs.class}` : 'pname' }, name);
}

/** Names as "A, B and C", each isolated (nodes and text, for h or fill). */
export function nameList(names, { and = ' and ' } = {}) {
  const out = [];
  names.forEach((n, i) => {
    if (i > 0) out.push(i === names.length - 1 ? and : ', ');
    out.push(n instanceof Node ? n : nameEl(n));
  });
  return out;
}

/**
 * A name in plain text (a page title, a label, a tooltip), where no element can hold it:
 * between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, which isolate it the same way.
 */
export function isolated(name) {
  return `\u2068${name}\u2069`;
}

/**
 * Runs `work` with `button` disabled, saying a failure on `line`: "Not done: " and the error's
 * words, or its words alone when it says them whole (`e.whole`).
 */
export async function whileBusy(button, line, work) {
  button.disabled = true;
  line.textContent = '';
  try {
    await work();
  } catch (e) {
    line.textContent = e.whole ? e.message : `Not done: ${e.message}`;
  } finally {
    button.disabled = false;
  }
}
