// Small words shared by the pages.

/** "1 point", "7 points", "−1 point". */
export function pointsText(n) {
  return `${n} ${Math.abs(n) === 1 ? 'point' : 'points'}`;
}

/** The text with its first letter made a capital. */
export function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
