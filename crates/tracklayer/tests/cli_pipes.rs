//! The command line as one stage of a pipeline: a reader that goes away early (`… | head -1`),
//! a line of standard input that is not UTF-8 among good ones, and a program that writes a
//! line and waits for its answer.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::{Value, json};

/// A complete Railroad Ink board (the rules' 46-point example).
const INK: &str = "A4A12B2B16A1B01A1B23S1B32A1A32B1B44B2A44A4C16A3D15A4D01A5D23A4E20B1F24A2F17A1F01B0G16A5C34A4C43A5C53A3D50A4D61S4E50A0F51A1F67S2E46B1E31A1F30A2G36A1G41B1G52";

/// A complete Metro game.
const METRO: &str = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";

fn lines(line: &str, n: usize) -> Vec<u8> {
    format!("{line}\n").repeat(n).into_bytes()
}

/// Starts the command, reads its first line of output, closes the pipe as `head -1` would,
/// and returns its exit status and everything it wrote to stderr.
fn first_line_then_close(args: &[&str], input: Vec<u8>) -> (String, i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The command stops reading when it stops: the rest of the input may not be wanted.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut first = String::new();
    {
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut first).unwrap();
    } // the read end is closed here
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (
        first,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_output_pipe_stops_the_command_quietly() {
    // Each prints megabytes, far more than a pipe and the command's buffer hold.
    let cases: Vec<(Vec<&str>, Vec<u8>)> = vec![
        (vec!["ink", "check", "--json", "-"], lines(INK, 30_000)),
        (vec!["ink", "check", "-"], lines(INK, 30_000)),
        (vec!["ink", "score", "--json", "-"], lines(INK, 30_000)),
        (vec!["ink", "score", "-"], lines(INK, 30_000)),
        (vec!["ink", "view", "-"], lines(INK, 2_000)),
        (vec!["metro", "check", "--json", "-"], lines(METRO, 20_000)),
        (vec!["metro", "check", "-"], lines(METRO, 20_000)),
        (
            vec!["metro", "score", "--players", "4", "--json", "-"],
            lines(METRO, 2_000),
        ),
        (
            vec!["metro", "score", "--players", "4", "-"],
            lines(METRO, 20_000),
        ),
        (
            vec!["metro", "view", "--players", "3", "-"],
            lines(METRO, 1_000),
        ),
        (
            vec!["metro", "legal", "--json", "-", "aaaa"],
            lines("", 50_000),
        ),
        (
            vec!["metro", "draw", "--seed", "1", "-"],
            lines("", 100_000),
        ),
        (
            vec!["ink", "roll", "--seed", "1", "--count", "1000000"],
            vec![],
        ),
        (vec!["ink", "dice", "--games", "100000"], vec![]),
        (
            vec![
                "ink", "play", "--agent", "random", "--games", "3000", "--json",
            ],
            vec![],
        ),
        (
            vec![
                "metro",
                "play",
                "--agents",
                "random,random",
                "--games",
                "1000",
                "--json",
            ],
            vec![],
        ),
    ];
    for (args, input) in cases {
        let (first, code, stderr) = first_line_then_close(&args, input);
        assert!(!first.is_empty(), "{args:?}: no first line");
        assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
        assert_eq!(
            (code, stderr.as_str()),
            (141, ""),
            "{args:?}: a closed pipe exits 141, silently"
        );
    }
}

fn run(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

#[test]
fn a_line_that_is_not_utf8_gets_its_own_answer_and_the_others_theirs() {
    // Line 2 is Latin-1 (é as one byte 0xE9), with a CRLF ending; line 3 starts with 0xFF.
    let input = b"A4A10\r\nA4A1\xe9\r\n\xffA4A10\nA4A10A4B10\n";

    let (code, out, err) = run(&["ink", "check", "--json", "-"], input);
    assert_eq!((code, err.as_str()), (1, ""));
    let v = json_lines(&out);
    assert_eq!(v.len(), 4);
    assert_eq!(
        (&v[0]["valid"], &v[3]["valid"]),
        (&json!(true), &json!(true))
    );
    assert_eq!(
        v[1],
        json!({"board": "A4A1\u{fffd}", "well_formed": false, "valid": false, "error": {
            "index": 0, "placement": "A4A1\u{fffd}",
            "message": "not well-formed: line 2 is not UTF-8 (byte 0xE9 at byte offset 4)"}})
    );
    assert_eq!(
        v[2]["error"]["message"],
        "not well-formed: line 3 is not UTF-8 (byte 0xFF at byte offset 0)"
    );

    let (code, out, _) = run(&["ink", "check", "-"], input);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "A4A10: valid, well-formed, 1 placements",
            "A4A1\u{fffd}: invalid: placement 0 (A4A1\u{fffd}): not well-formed: line 2 is not UTF-8 (byte 0xE9 at byte offset 4)",
            "\u{fffd}A4A10: invalid: placement 0 (\u{fffd}A4A1): not well-formed: line 3 is not UTF-8 (byte 0xFF at byte offset 0)",
            "A4A10A4B10: valid, well-formed, 2 placements",
        ]
    );

    let (code, out, _) = run(&["ink", "score", "--json", "-"], input);
    assert_eq!(code, 1);
    let v = json_lines(&out);
    assert_eq!(v.len(), 4);
    assert_eq!(v[0]["advanced"], 0);
    assert!(
        v[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 2 is not UTF-8")
    );
    assert!(
        v[2]["error"]
            .as_str()
            .unwrap()
            .contains("line 3 is not UTF-8")
    );
    assert_eq!(v[3]["board"], "A4A10A4B10");

    // Metro: the invalid byte in placement 1, after a valid placement.
    let input = b"aaaa03\naaaa03dd\xc3dd13\n\naaaa03aaaa13\n";
    let (code, out, err) = run(&["metro", "check", "--json", "-"], input);
    assert_eq!((code, err.as_str()), (1, ""));
    let v = json_lines(&out);
    assert_eq!(v.len(), 4);
    assert_eq!(
        v[1],
        json!({"sequence": "aaaa03dd\u{fffd}dd13", "well_formed": false, "valid": false, "error": {
            "index": 1, "placement": "dd\u{fffd}dd1",
            "message": "not well-formed: line 2 is not UTF-8 (byte 0xC3 at byte offset 8)",
            "rule": "malformed"}})
    );
    assert_eq!(
        [&v[0]["valid"], &v[2]["valid"], &v[3]["valid"]],
        [&json!(true); 3]
    );

    let (code, out, _) = run(&["metro", "score", "--players", "2", "--json", "-"], input);
    assert_eq!(code, 1);
    let v = json_lines(&out);
    assert_eq!(v.len(), 4);
    assert_eq!(v[1]["scores"], Value::Null);
    assert_eq!(v[1]["error"]["rule"], "malformed");
    assert_eq!(v[3]["scores"], json!([0, 0]));

    for args in [
        &["metro", "check", "-"][..],
        &["metro", "score", "--players", "2", "-"],
        &["metro", "view", "--players", "2", "-"],
        &["metro", "draw", "--seed", "1", "-"],
        &["metro", "move", "--players", "2", "-", "dddd"],
        &["metro", "legal", "-", "dddd"],
    ] {
        let (code, out, err) = run(args, input);
        assert_eq!((code, err.as_str()), (1, ""), "{args:?}");
        let bad: Vec<&str> = out.lines().filter(|l| l.contains("not UTF-8")).collect();
        assert_eq!(bad.len(), 1, "{args:?}: {out}");
        assert!(bad[0].contains("line 2 is not UTF-8"), "{args:?}: {out}");
    }
}

#[test]
fn each_line_is_answered_before_the_input_ends() {
    // A program that writes a line and waits for its answer is not left waiting on a buffer.
    for (args, first, second) in [
        (&["ink", "check", "--json", "-"][..], "A4A10", "A4A10A4B10"),
        (&["metro", "check", "-"], "aaaa03", "xx"),
        (
            &["metro", "score", "--players", "2", "--json", "-"],
            "",
            "aaaa03",
        ),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tracklayer"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = mpsc::channel();
        let reader = thread::spawn(move || {
            for _ in 0..2 {
                let mut line = String::new();
                stdout.read_line(&mut line).unwrap();
                tx.send(line).unwrap();
            }
        });
        for input in [first, second] {
            writeln!(stdin, "{input}").unwrap();
            stdin.flush().unwrap();
            let answer = rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("{args:?}: no answer to {input:?} while stdin is open"));
            assert!(answer.contains(input), "{args:?}: {answer}");
        }
        drop(stdin);
        reader.join().unwrap();
        child.wait().unwrap();
    }
}
