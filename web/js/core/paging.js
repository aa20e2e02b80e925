// A list shown page by page, newest first, with a button for the older ones (the recent games,
// the past challenges).

import { h } from './dom.js';

/**
 * The list (an `ol` with `attrs`), its status line and its `older` button. `page(before)`
 * resolves with {items, next} (`next`: where the next page starts, null after the last); each
 * item is drawn by `item`. The status says `empty` while the list has nothing, or why a page did
 * not come. Returns {list, status, more, load}: `load()` brings the first page, once the three
 * are on the page.
 */
export function pagedList({ attrs, older, empty, page, item }) {
  const list = h('ol', attrs);
  const more = h('button', { class: 'btn', type: 'button', id: 'older', hidden: true }, older);
  const status = h('p', { class: 'muted' }, 'Loading…');
  let before = null;
  async function load() {
    more.disabled = true;
    try {
      const got = await page(before);
      for (const x of got.items) list.append(item(x));
      before = got.next ?? null;
      more.hidden = before === null;
      status.hidden = list.children.length > 0;
      status.textContent = empty;
    } catch (e) {
      status.hidden = false;
      status.textContent = e.message;
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener('click', load);
  return { list, status, more, load };
}
