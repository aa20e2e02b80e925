// The games this app plays: each game's module description (its index.js: kind, name, routes,
// start-page card, rules and viewer pages), registered by app.js before the first page is shown,
// so that what lists the games (the tabs between their pages, their names) follows them.

let registered = [];

export function registerGames(list) {
  registered = list;
}

/** The registered games, in the order the pages list them. */
export function games() {
  return registered;
}

/** A kind of game for people: "Railroad Ink" (an unknown kind as it is). */
export function gameName(kind) {
  return registered.find((g) => g.kind === kind)?.name || kind;
}
