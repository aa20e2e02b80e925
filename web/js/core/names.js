// Player names as the server takes them: trimmed, at most 32 characters counted as Unicode code
// points (an emoji is one; an input's `maxlength` counts UTF-16 units, two for an emoji, so the
// pages count themselves), and nothing invisible or that reorders text (the server refuses
// those with a 400 that says which character; the page shows that sentence by the field). The
// server alone says whether a name looks like another player's or a computer's (Unicode's
// confusables), and which invisible characters an emoji sequence may hold.

import { ApiError } from './request.js';
import { h } from './dom.js';

export const MAX_NAME = 32;

/** A name's length as the server counts it: code points, after trimming. */
export function nameLength(text) {
  return [...String(text ?? '').trim()].length;
}

/** Why a name is too long, or null. */
export function tooLong(text) {
  const n = nameLength(text);
  return n > MAX_NAME ? `${n} characters: a name has at most ${MAX_NAME} (an emoji counts as one).` : null;
}

/** Whether an error is the server refusing a name (a 400 that speaks of the name). */
export function isNameRefusal(e) {
  // 400: a name that may not be (a computer's, an invisible character); 409: another player's.
  return e instanceof ApiError && (e.status === 400 || e.status === 409) && /\bname\b/i.test(e.message);
}

/** The server's sentence, as a sentence: "A name may not hold U+202E, …". */
export function sentence(text) {
  const t = String(text || '');
  return t ? `${t[0].toUpperCase()}${t.slice(1)}${/[.!?)]$/.test(t) ? '' : '.'}` : t;
}

let hints = 0;

/**
 * Watches a name input. Returns {hint, ok(), refuse(message), clear()}: `hint` is the line to
 * put under the field (the count near the limit, what is wrong past it, or the server's refusal);
 * `ok()` says whether the name may be sent (if not, it says why and focuses the field);
 * `refuse(message)` shows the server's refusal there until the name is changed.
 */
export function watchName(input) {
  const hint = h('p', { class: 'name-hint small', id: `name-hint-${++hints}`, 'aria-live': 'polite' });
  input.setAttribute('aria-describedby', hint.id);
  input.removeAttribute('maxlength');
  const show = (text, bad) => {
    hint.textContent = text;
    hint.classList.toggle('bad', !!bad);
    if (bad) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  const live = () => {
    const n = nameLength(input.value);
    const long = tooLong(input.value);
    if (long) show(long, true);
    else if (n > MAX_NAME - 8) show(`${n} of ${MAX_NAME} characters.`, false);
    else show('', false);
  };
  input.addEventListener('input', live);
  live();
  return {
    hint,
    ok() {
      live();
      if (!hint.classList.contains('bad')) return true;
      input.focus();
      return false;
    },
    refuse(message) {
      show(sentence(message), true);
      input.focus();
    },
    clear: live,
  };
}
