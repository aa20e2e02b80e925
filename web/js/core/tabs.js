// The tabs between the games' pages of one sort (their rules, their board viewers), one tab for
// each registered game that has such a page.

import { h } from './dom.js';
import { games } from './games.js';

function tabs(active, page, className) {
  const tab = (g) => h('a', {
    class: `tab${g.kind === active ? ' active' : ''}`, href: g[page], 'data-link': '',
    'aria-current': g.kind === active ? 'page' : null,
  }, g.name);
  return h('nav', { class: className, 'aria-label': 'Game' }, games().filter((g) => g[page]).map(tab));
}

/** Tabs between the games' rules. */
export function rulesTabs(active) {
  return tabs(active, 'rules', 'tabs rules-tabs');
}

/** Tabs between the games' board viewers. */
export function viewerTabs(active) {
  return tabs(active, 'viewer', 'tabs');
}
