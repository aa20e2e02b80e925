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

/**
 * A game's description from its pages' declaration (its pages.js) and how each screen shows its
 * loaded module (`show[screen](module, root, params, ctx)`; `wrap`, if given, wraps each route's
 * function, such as to wait for the game's table): its kind, the first path of its rules and
 * viewer pages (for the tabs), its routes (each module loaded when its page is opened, with
 * `load`, the game's own `import()`, so that the declaration's paths are the game's folder's) and
 * its start card (`start`: its words and the name of the card in the start module), how its
 * challenges are told (`challenge`: see `challengeWords` in challenges/words.js), and the names
 * of its modes for people (`modes`: a game's mode it does not name is told by its players).
 */
export function describeGame(declared, { name, show, wrap = (f) => f, start, load, challenge = null, modes = {} }) {
  const first = (screen) => declared.pages.find((p) => p.screen === screen)?.paths[0];
  const routes = declared.pages.map((p) => {
    if (!show[p.screen]) throw new Error(`${declared.kind}: no way to show the ${p.screen} screen`);
    const open = async (root, params, ctx) => {
      const module = await load(p.module);
      return ctx.gone?.() ? null : show[p.screen](module, root, params, ctx);
    };
    return { path: p.paths, screen: p.screen, show: wrap(open) };
  });
  return {
    kind: declared.kind,
    name,
    rules: first('rules'),
    viewer: first('viewer'),
    routes,
    challenge,
    modes,
    start: {
      title: start.title,
      text: start.text,
      load: () => load(declared.start).then((m) => m[start.card]),
    },
  };
}

/** The registered game of a kind, or null. */
export function gameOf(kind) {
  return registered.find((g) => g.kind === kind) || null;
}

/** The path of game `id`'s `screen` page (`game`, `replay`, `review`), as its kind declares it. */
export function gamePath(kind, id, screen = 'game') {
  const route = gameOf(kind)?.routes.find((r) => r.screen === screen);
  const path = route ? [route.path].flat()[0] : `/${kind}/{id}${screen === 'game' ? '' : `/${screen}`}`;
  return path.replace('{id}', id);
}
