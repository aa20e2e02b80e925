// Metro's pages, declared once: each screen's paths (`{id}` is a game's id; links use the first
// path) and the module that shows it, and the module of its start-page card. The app's routes
// come from it (./index.js), and so do the server's kinds of page and their preloads: the
// server's build.rs reads the object after `export default` as JSON, so it stays JSON.
export default {
  "kind": "metro",
  "pages": [
    { "screen": "game", "paths": ["/metro/{id}"], "module": "./game.js" },
    { "screen": "replay", "paths": ["/metro/{id}/replay"], "module": "./replay.js" },
    { "screen": "review", "paths": ["/metro/{id}/review"], "module": "./review.js" },
    { "screen": "viewer", "paths": ["/view/metro"], "module": "./viewer.js" },
    { "screen": "rules", "paths": ["/rules/metro"], "module": "./rules.js" },
    { "screen": "tutorial", "paths": ["/tutorial/metro"], "module": "./tutorial.js" }
  ],
  "start": "./start.js"
};
