// Railroad Ink's pages, declared once: each screen's paths (`{id}` is a game's id; links use the
// first path) and the module that shows it, and the module of its start-page card. The app's
// routes come from it (./index.js), and so do the server's kinds of page and their preloads:
// the server's build.rs reads the object after `export default` as JSON, so it stays JSON.
export default {
  "kind": "ink",
  "pages": [
    { "screen": "game", "paths": ["/ink/{id}"], "module": "./game.js" },
    { "screen": "replay", "paths": ["/ink/{id}/replay"], "module": "./replay.js" },
    { "screen": "review", "paths": ["/ink/{id}/review"], "module": "./review.js" },
    { "screen": "viewer", "paths": ["/view/ink", "/view"], "module": "./viewer.js" },
    { "screen": "rules", "paths": ["/rules"], "module": "./rules.js" },
    { "screen": "tutorial", "paths": ["/tutorial/ink"], "module": "./tutorial.js" }
  ],
  "start": "./start.js"
};
