//! Embeds the browser front-end (`web/` at the workspace root) into the binary, ready for a
//! fast first load, with no JavaScript build step (the modules stay as they are written):
//!
//! - every file gets a second, content-hashed name (`/js/app.3f9a…c2.js`) that the server
//!   caches as immutable; its plain name keeps working, revalidated;
//! - every text file is compressed here, once, with brotli (quality 11) and gzip (level 9), so
//!   the server only picks what the browser accepts;
//! - each HTML page names the hashed files (`href`, `src`), maps every module's plain path to
//!   its hashed name in an import map (so the modules' own `import './x.js'` lines load the
//!   hashed files without being rewritten, and a change to one module changes only its name),
//!   and announces its module graph up front with `<link rel="modulepreload">` (instead of the
//!   browser finding it one `import` at a time): the app's own modules, and those of the page
//!   the path shows (each page's module is loaded by its route with `import()`), one copy of
//!   the page for each kind (`PAGES`), so that a page asks for its modules and no other's.
//!
//! The tables (`assets.rs` in `OUT_DIR`) give each file its paths, content type, bodies and
//! ETags (`ASSETS`), and the app's page for each kind of page (`PAGES`, by kind);
//! `IMPORT_MAP_SHA256` is the hash that lets the pages' content security policy run the inline
//! import map.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use sha2::{Digest, Sha256};

/// One file of `web/`, as served.
struct File {
    /// Its path under `web/`, as a URL path (`/js/app.js`).
    path: String,
    /// Its content-hashed path (`/js/app.0123456789abcdef.js`); none for HTML pages, which are
    /// always asked for by their own name.
    hashed: Option<String>,
    mime: &'static str,
    body: Vec<u8>,
}

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut paths = Vec::new();
    if web.is_dir() {
        collect(&web, &mut paths);
    }
    paths.sort();

    let mut files: Vec<File> = paths
        .iter()
        .map(|file| {
            let rel = file
                .strip_prefix(&web)
                .expect("under web/")
                .to_string_lossy()
                .replace('\\', "/");
            let body = fs::read(file).expect("readable asset");
            let path = format!("/{rel}");
            let mime = mime(file);
            let hashed = (!is_html(mime) && !FIXED_NAMES.contains(&path.as_str()))
                .then(|| hashed_path(&path, &body));
            File {
                path,
                hashed,
                mime,
                body,
            }
        })
        .collect();

    // The engines for the page, and their hashed name in the module that loads them.
    if let Some(wasm) = web_engines(&manifest.join("../..")) {
        let path = ENGINES.to_owned();
        let hashed = hashed_path(&path, &wasm);
        if let Some(loader) = files.iter_mut().find(|f| f.path == ENGINES_LOADER) {
            let source = String::from_utf8(loader.body.clone()).expect("UTF-8");
            let line = format!("const WASM = '{ENGINES}';");
            assert!(
                source.contains(&line),
                "build.rs: {ENGINES_LOADER} must have the line `{line}`"
            );
            loader.body = source
                .replace(&line, &format!("const WASM = '{hashed}';"))
                .into_bytes();
            loader.hashed = Some(hashed_path(&loader.path, &loader.body));
        }
        files.push(File {
            path,
            hashed: Some(hashed),
            mime: "application/wasm",
            body: wasm,
        });
    }

    // The pages name the hashed files, and carry the import map and the module graph.
    let modules: BTreeMap<String, String> = files
        .iter()
        .filter(|f| f.mime.starts_with("text/javascript"))
        .filter_map(|f| Some((f.path.clone(), f.hashed.clone()?)))
        .collect();
    let hashed: BTreeMap<String, String> = files
        .iter()
        .filter_map(|f| Some((f.path.clone(), f.hashed.clone()?)))
        .collect();
    let sources: BTreeMap<String, String> = files
        .iter()
        .filter(|f| f.mime.starts_with("text/javascript") && f.hashed.is_some())
        .map(|f| {
            (
                f.path.clone(),
                String::from_utf8_lossy(&f.body).into_owned(),
            )
        })
        .collect();
    let map = import_map(&modules);
    // The app's page once for each kind of page, preloading that page's modules too.
    let index = files
        .iter()
        .find(|f| f.path == "/index.html")
        .map(|f| String::from_utf8(f.body.clone()).expect("HTML in UTF-8"));
    let (kinds, game_paths) = all_pages(&game_pages(&web));
    let mut pages = Vec::new();
    for (kind, entries) in &kinds {
        for entry in entries {
            assert!(
                sources.contains_key(entry),
                "build.rs: the {kind} page's module {entry} is not in web/"
            );
        }
        if let Some(index) = &index {
            pages.push(File {
                path: kind.clone(),
                hashed: None,
                mime: "text/html; charset=utf-8",
                body: page(index, entries, &hashed, &sources, &map).into_bytes(),
            });
        }
    }
    for file in files.iter_mut().filter(|f| is_html(f.mime)) {
        let html = String::from_utf8(std::mem::take(&mut file.body)).expect("HTML in UTF-8");
        file.body = page(&html, &[], &hashed, &sources, &map).into_bytes();
    }

    // The service worker keeps every hashed file, and the app's page, for this version.
    if let Some(worker) = files.iter_mut().find(|f| f.path == WORKER) {
        worker.body = service_worker(&worker.body, &hashed).into_bytes();
    }

    let packed = out_dir.join("packed");
    fs::create_dir_all(&packed).expect("create OUT_DIR/packed");
    let mut out = String::new();
    table(&mut out, "ASSETS", &files, &packed.join("file"));
    table(&mut out, "PAGES", &pages, &packed.join("page"));
    writeln!(
        out,
        "/// Each game's page paths (`{{id}}`: one segment) and their kind of page, as the games'\n\
         /// `pages.js` declare them.\n\
         pub static GAME_PAGES: &[(&str, &str)] = &{game_paths:?};"
    )
    .expect("write to string");
    writeln!(
        out,
        "/// The hash of the pages' inline import map, for their content security policy.\n\
         pub const IMPORT_MAP_SHA256: &str = {:?};",
        format!("sha256-{}", base64(&Sha256::digest(map.as_bytes())))
    )
    .expect("write to string");
    fs::write(out_dir.join("assets.rs"), out).expect("write assets.rs");
}

/// The engines' WebAssembly module, as served (under its hashed name), and the module that
/// loads it (its line `const WASM = '/wasm/engines.wasm';` gets the hashed name).
const ENGINES: &str = "/wasm/engines.wasm";
const ENGINES_LOADER: &str = "/js/engines/wasm.js";

/// The target the page's engines are compiled for.
const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The engines for the page (`crates/web-engines`) compiled to WebAssembly by a cargo of their
/// own (profile `wasm`, in `wasm-engines/` of the target folder), or none, with a warning, when
/// the toolchain lacks the target: the site then plays online only.
fn web_engines(workspace: &Path) -> Option<Vec<u8>> {
    for dir in ["railroad-ink", "metro", "review-scale", "web-engines"] {
        let krate = workspace.join("crates").join(dir);
        println!("cargo:rerun-if-changed={}", krate.join("src").display());
        println!(
            "cargo:rerun-if-changed={}",
            krate.join("Cargo.toml").display()
        );
    }
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("Cargo.lock").display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        workspace.join("Cargo.toml").display()
    );
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let libdir = std::process::Command::new(&rustc)
        .args(["--print", "target-libdir", "--target", WASM_TARGET])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    if !libdir.is_some_and(|dir| dir.is_dir()) {
        println!(
            "cargo:warning=the toolchain has no {WASM_TARGET} target, so the site is built \
             without its engines in the page (no offline play): run \
             `rustup target add {WASM_TARGET}` and build again"
        );
        return None;
    }
    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"))
        .join("wasm-engines");
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // A clean environment: none of this build's settings (its profile, flags, target) leak
    // into the inner one, except where the tools and the jobserver are.
    let mut command = std::process::Command::new(cargo);
    command.env_clear();
    for key in [
        "PATH",
        "HOME",
        "CARGO_HOME",
        "RUSTUP_HOME",
        "RUSTUP_TOOLCHAIN",
        "CARGO_MAKEFLAGS",
        "CARGO_NET_OFFLINE",
    ] {
        if let Some(value) = env::var_os(key) {
            command.env(key, value);
        }
    }
    let output = command
        .current_dir(workspace)
        .args([
            "build",
            "--quiet",
            "--profile",
            "wasm",
            "--target",
            WASM_TARGET,
        ])
        .args(["-p", "web-engines", "--target-dir"])
        .arg(&target_dir)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "build.rs: the engines for the page did not build:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let file = target_dir
        .join(WASM_TARGET)
        .join("wasm")
        .join("web_engines.wasm");
    Some(fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())))
}

/// Files asked for by their own names only, never hashed: the service worker (a browser finds
/// a new version of it at the same address, and its scope is the folder it is in) and the web
/// app manifest (the address an installed app was installed from).
const FIXED_NAMES: &[&str] = &[WORKER, "/manifest.webmanifest"];

/// The service worker's path.
const WORKER: &str = "/sw.js";

/// The service worker (`web/sw.js`) for this build: its `const VERSION = 'dev';` line names
/// the build (a hash of every hashed file's name, so that any change to a file makes a new
/// worker, which the browser installs beside the old one) and its `const PRECACHE = [];` line
/// lists what it keeps: the app's page and every hashed file.
fn service_worker(source: &[u8], hashed: &BTreeMap<String, String>) -> String {
    const VERSION: &str = "const VERSION = 'dev';";
    const PRECACHE: &str = "const PRECACHE = [];";
    let source = String::from_utf8(source.to_vec()).expect("sw.js in UTF-8");
    assert!(
        source.contains(VERSION) && source.contains(PRECACHE),
        "build.rs: web/sw.js must have the lines `{VERSION}` and `{PRECACHE}`"
    );
    let names: Vec<&String> = hashed.values().collect();
    let version = hex(&Sha256::digest(
        names
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    )[..8]);
    let mut list = String::from("const PRECACHE = [\n  '/',");
    for name in names {
        write!(list, "\n  '{name}',").expect("write to string");
    }
    list.push_str("\n];");
    source
        .replace(VERSION, &format!("const VERSION = '{version}';"))
        .replace(PRECACHE, &list)
}

/// The kinds of page of the app that are no game's (the server tells them by their paths:
/// `http/assets.rs`) and the modules each shows, loaded by the routes with `import()`: the page
/// of each kind preloads them (and what they import) beside the app's own modules, so that its
/// first load asks for them at once and for no other page's. The start page shows every game's
/// card too; each game's own pages come from its declaration (see [`GamePages`]).
const SITE_PAGES: &[(&str, &[&str])] = &[
    ("start", &["/js/pages/start.js"]),
    ("challenges", &["/js/challenges/list.js"]),
    ("challenge", &["/js/challenges/leaderboard.js"]),
    ("games", &["/js/pages/recent.js"]),
    ("player", &["/js/pages/player.js"]),
];

/// A game's pages as its `web/js/{game}/pages.js` declares them (the object after
/// `export default`, written as JSON): each screen's paths and module, and its start card's
/// module. Its kinds of page are `{kind}-{screen}`.
#[derive(serde::Deserialize)]
struct GamePages {
    kind: String,
    pages: Vec<GamePage>,
    start: String,
}

#[derive(serde::Deserialize)]
struct GamePage {
    screen: String,
    paths: Vec<String>,
    module: String,
}

/// Every game's declared pages under `web/js`, by folder name.
fn game_pages(web: &Path) -> Vec<(String, GamePages)> {
    let mut found = Vec::new();
    let Ok(dirs) = fs::read_dir(web.join("js")) else {
        return found;
    };
    let mut dirs: Vec<PathBuf> = dirs.filter_map(|d| Some(d.ok()?.path())).collect();
    dirs.sort();
    for dir in dirs {
        let file = dir.join("pages.js");
        let Ok(text) = fs::read_to_string(&file) else {
            continue;
        };
        // The object from the line that starts `export default` to the file's end.
        let json = text
            .find("\nexport default")
            .map(|at| {
                text[at + "\nexport default".len()..]
                    .trim()
                    .trim_end_matches(';')
            })
            .unwrap_or_else(|| panic!("{}: no line starts `export default`", file.display()));
        let declared: GamePages = serde_json::from_str(json)
            .unwrap_or_else(|e| panic!("{}: not the JSON of a game's pages: {e}", file.display()));
        let folder = dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a folder name in UTF-8")
            .to_owned();
        found.push((folder, declared));
    }
    found
}

/// The module a game's declaration names (`./game.js`), as a path from `web/`.
fn module_path(folder: &str, module: &str) -> String {
    format!("/js/{folder}/{}", module.trim_start_matches("./"))
}

/// Kinds of page, each with the modules it shows.
type Kinds = Vec<(String, Vec<String>)>;

/// Every kind of page with its modules (the site's and each game's), and each game page's
/// paths with its kind.
fn all_pages(games: &[(String, GamePages)]) -> (Kinds, Vec<(String, String)>) {
    let mut kinds: Kinds = SITE_PAGES
        .iter()
        .map(|(kind, modules)| {
            (
                (*kind).to_owned(),
                modules.iter().map(|m| (*m).to_owned()).collect(),
            )
        })
        .collect();
    let mut paths = Vec::new();
    for (folder, game) in games {
        if let Some((_, start)) = kinds.iter_mut().find(|(k, _)| k == "start") {
            start.push(module_path(folder, &game.start));
        }
        for page in &game.pages {
            let kind = format!("{}-{}", game.kind, page.screen);
            kinds.push((kind.clone(), vec![module_path(folder, &page.module)]));
            for path in &page.paths {
                paths.push((path.clone(), kind.clone()));
            }
        }
    }
    (kinds, paths)
}

/// Writes `pub static {name}: &[Asset]` for `files`, their bodies (and compressed ones) kept
/// beside `stem` (`stem.0.raw`, `stem.0.br`, `stem.0.gz`, …).
fn table(out: &mut String, name: &str, files: &[File], stem: &Path) {
    writeln!(out, "pub static {name}: &[Asset] = &[").expect("write to string");
    for (i, file) in files.iter().enumerate() {
        let digest = Sha256::digest(&file.body);
        let tag = hex(&digest[..8]);
        let identity = stem.with_extension(format!("{i}.raw"));
        fs::write(&identity, &file.body).expect("write asset");
        let (br, gzip) = if compressible(file.mime) {
            let br = Some(brotli(&file.body)).filter(|b| b.len() < file.body.len());
            let gz = Some(gzip(&file.body)).filter(|b| b.len() < file.body.len());
            (br, gz)
        } else {
            (None, None)
        };
        let variant = |bytes: Option<Vec<u8>>, ext: &str| -> String {
            match bytes {
                Some(bytes) => {
                    let at = stem.with_extension(format!("{i}.{ext}"));
                    fs::write(&at, bytes).expect("write compressed asset");
                    format!(
                        "Some(Encoded {{ body: include_bytes!({:?}), etag: \"\\\"{tag}-{ext}\\\"\" }})",
                        at.display().to_string()
                    )
                }
                None => "None".to_owned(),
            }
        };
        let br = variant(br, "br");
        let gzip = variant(gzip, "gz");
        writeln!(
            out,
            "    Asset {{\n        path: {:?},\n        hashed: {:?},\n        mime: {:?},\n        \
             identity: Encoded {{ body: include_bytes!({:?}), etag: \"\\\"{tag}\\\"\" }},\n        \
             br: {br},\n        gzip: {gzip},\n    }},",
            file.path,
            file.hashed,
            file.mime,
            identity.display().to_string(),
        )
        .expect("write to string");
    }
    out.push_str("];\n");
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("readable web dir")
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        if name.as_deref().is_some_and(|n| n.starts_with('.')) {
            continue;
        }
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") | Some("mjs") => "text/javascript; charset=utf-8",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("webmanifest") => "application/manifest+json",
        Some("wasm") => "application/wasm",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn is_html(mime: &str) -> bool {
    mime.starts_with("text/html")
}

/// Text compresses; pictures other than SVG already are.
fn compressible(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.starts_with("image/svg+xml")
        || mime.starts_with("application/json")
        || mime.starts_with("application/manifest+json")
        || mime.starts_with("application/wasm")
}

/// `/js/app.js` with its content's hash: `/js/app.0123456789abcdef.js`.
fn hashed_path(path: &str, body: &[u8]) -> String {
    let hash = hex(&Sha256::digest(body)[..8]);
    let (dir, name) = path.rsplit_once('/').expect("starts with /");
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => format!("{dir}/{stem}.{hash}.{ext}"),
        _ => format!("{dir}/{name}.{hash}"),
    }
}

/// The inline import map: every module's plain path to its hashed one. Its exact text is
/// hashed for the content security policy.
fn import_map(modules: &BTreeMap<String, String>) -> String {
    let mut map = String::from("{\"imports\": {");
    for (i, (path, hashed)) in modules.iter().enumerate() {
        let comma = if i + 1 < modules.len() { "," } else { "" };
        write!(map, "\n  \"{path}\": \"{hashed}\"{comma}").expect("write to string");
    }
    map.push_str("\n}}");
    map
}

/// A page made ready: hashed names in its `href` and `src` attributes, the import map before
/// its first module script and after it a `modulepreload` for every module that script
/// imports, directly or not, then for the `route`'s modules (what the page of that kind loads
/// with `import()`) and what they import (breadth first).
fn page(
    html: &str,
    route: &[String],
    hashed: &BTreeMap<String, String>,
    sources: &BTreeMap<String, String>,
    map: &str,
) -> String {
    const MODULE: &str = "<script type=\"module\" src=\"";
    let entries: Vec<String> = html
        .match_indices(MODULE)
        .filter_map(|(at, _)| {
            let rest = &html[at + MODULE.len()..];
            Some(rest[..rest.find('"')?].to_owned())
        })
        .collect();
    let mut seen: BTreeSet<String> = entries.iter().cloned().collect();
    let mut preload = Vec::new();
    // The app's own modules first (its entry has its script), then the page's.
    for start in [entries, route.to_vec()] {
        let mut queue: VecDeque<String> = VecDeque::new();
        for module in start {
            if seen.insert(module.clone()) {
                preload.push(module.clone());
            }
            queue.push_back(module);
        }
        while let Some(module) = queue.pop_front() {
            let Some(source) = sources.get(&module) else {
                continue;
            };
            for dep in imports(&module, source) {
                if sources.contains_key(&dep) && seen.insert(dep.clone()) {
                    preload.push(dep.clone());
                    queue.push_back(dep);
                }
            }
        }
    }
    let mut html = html.to_owned();
    for (path, hashed) in hashed {
        for attr in ["href", "src"] {
            html = html.replace(
                &format!("{attr}=\"{path}\""),
                &format!("{attr}=\"{hashed}\""),
            );
        }
    }
    let Some(at) = html.find(MODULE) else {
        return html;
    };
    let indent: String = html[..at].chars().rev().take_while(|c| *c == ' ').collect();
    // The import map before the first module script (it must come first), the entry's own
    // script next (its request first in line), then the rest of the graph.
    let mut preloads = String::new();
    for module in &preload {
        write!(
            preloads,
            "\n{indent}<link rel=\"modulepreload\" href=\"{}\">",
            hashed[module]
        )
        .expect("write to string");
    }
    let end = at + html[at..].find("</script>").expect("a closed script") + "</script>".len();
    html.insert_str(end, &preloads);
    html.insert_str(
        at,
        &format!("<script type=\"importmap\">{map}</script>\n{indent}"),
    );
    html
}

/// The modules a module imports statically (`import … from '…'`, `export … from '…'`,
/// `import '…'`; not `import('…')`, which loads a page's module when it is opened), by relative
/// or absolute path, resolved to absolute paths. A scan of its text, not a parse: a specifier
/// in a comment or a string that names no module of `web/` is dropped by the caller.
fn imports(module: &str, source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for keyword in ["from", "import"] {
        for (at, _) in source.match_indices(keyword) {
            let rest = source[at + keyword.len()..].trim_start();
            let Some(quote) = rest.chars().next().filter(|c| matches!(c, '\'' | '"')) else {
                continue;
            };
            let rest = &rest[1..];
            let Some(end) = rest.find(quote) else {
                continue;
            };
            let spec = &rest[..end];
            if spec.starts_with("./") || spec.starts_with("../") || spec.starts_with('/') {
                found.push(resolve(module, spec));
            }
        }
    }
    found
}

/// `spec` relative to the module at `base`: `resolve("/js/ink/game.js", "../core/dom.js")` is
/// `/js/core/dom.js`.
fn resolve(base: &str, spec: &str) -> String {
    let mut parts: Vec<&str> = if spec.starts_with('/') {
        Vec::new()
    } else {
        let mut dir: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
        dir.pop();
        dir
    };
    for part in spec.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

fn brotli(body: &[u8]) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: 11,
        lgwin: 22,
        ..Default::default()
    };
    let mut out = Vec::new();
    brotli::BrotliCompress(&mut &body[..], &mut out, &params).expect("brotli");
    out
}

fn gzip(body: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(body).expect("gzip");
    encoder.finish().expect("gzip")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
