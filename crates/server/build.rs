//! Embeds the browser front-end (`web/` at the workspace root) into the binary: every file
//! becomes a static byte string with its content type and an ETag.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

fn main() {
    let manifest = PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    println!("cargo:rerun-if-changed={}", web.display());
    let mut files = Vec::new();
    if web.is_dir() {
        collect(&web, &mut files);
    }
    files.sort();
    let mut out = String::from("pub static ASSETS: &[Asset] = &[\n");
    for file in &files {
        let rel = file
            .strip_prefix(&web)
            .expect("under web/")
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = fs::read(file).expect("readable asset");
        let abs = fs::canonicalize(file).expect("asset path");
        writeln!(
            out,
            "    Asset {{ path: {:?}, body: include_bytes!({:?}), mime: {:?}, etag: \"\\\"{:016x}\\\"\" }},",
            format!("/{rel}"),
            abs.display().to_string(),
            mime(file),
            fnv1a(&bytes)
        )
        .expect("write to string");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(env::var("OUT_DIR").expect("set by cargo")).join("assets.rs");
    fs::write(dest, out).expect("write assets.rs");
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
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
