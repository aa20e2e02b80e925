//! Every relative link of the documentation resolves: the README, `docs/` and `deploy/` name
//! files that exist, and a link to a heading (`page.md#heading`) finds that heading, as GitHub
//! makes its anchors. Links out of the repository (`https:`, `mailto:`) are not followed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Markdown files to check: the README and every `.md` under `docs/` and `deploy/`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs"), root.join("deploy")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The text outside fenced code blocks.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces to
/// hyphens.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// The targets of the page's inline links, `[text](target)`.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let end = rest.find([')', ' ', '\n']).unwrap_or(rest.len());
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let root = repo();
    let mut broken = Vec::new();
    let pages = pages(&root);
    assert!(pages.len() > 1, "no pages found under {}", root.display());
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for link in links(&text) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(path)
            };
            let name = page
                .strip_prefix(&root)
                .unwrap_or(page)
                .display()
                .to_string();
            if !target.exists() {
                broken.push(format!("{name}: {link} (no such file)"));
            } else if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
                let heads = anchors(&std::fs::read_to_string(&target).unwrap());
                if !heads.contains(anchor) {
                    broken.push(format!("{name}: {link} (no such heading)"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let heads =
        anchors("# Running it in public\n## Is the estimate honest?\n```\n# not a heading\n```\n");
    let want: BTreeSet<String> = ["running-it-in-public", "is-the-estimate-honest"]
        .map(String::from)
        .into();
    assert_eq!(heads, want);
    assert_eq!(
        links("[a](docs/x.md#y) and [b](https://example.org)"),
        ["docs/x.md#y", "https://example.org"]
    );
}
