// Small words shared by the pages.

/** A number as printed: negative ones with the true minus sign (−15, never -15). */
export function num(n) {
  return n < 0 ? `−${-n}` : String(n);
}

/** "1 point", "7 points", "−1 point". */
export function pointsText(n) {
  return `${num(n)} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}

/** A date as every page prints it: "26 November 2026" (`utc`: the day in UTC, as challenges' days are). */
export function dateText(ms, { utc = false } = {}) {
  return new Date(ms).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', ...(utc ? { timeZone: 'UTC' } : {}) });
}

/** A moment as every page prints it: "26 November 2026, 14:48" (this device's time). */
export function dateTimeText(ms) {
  return `${dateText(ms)}, ${new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;
}

/** The text with its first letter made a capital. */
export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A rating in words: `1532?` while provisional (its uncertainty wide), `1532` once settled. */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/** A rating's hover text: its uncertainty, and whether it is settled. */
export function ratingTitle(r) {
  return `rating ${r.rating} ± ${r.deviation}${r.provisional ? ', provisional until more results settle it' : ''}`;
}
