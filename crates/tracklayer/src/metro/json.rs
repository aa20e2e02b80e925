//! `metro score --json`'s line for a scored sequence, written straight to the output.
//!
//! A complete game's line is about 4.4 KB: 32 stations, each with its squares. Going through
//! serde (a flattened struct is serialized as a map, every key escaped, every square formatted
//! through `fmt`) cost three times as much as checking the sequence. This writes the same
//! bytes as `serde_json` would for `ScoreJson` (a test holds it to that) with no formatting
//! machinery: every value but the sequence is a small number or a fixed word.

use std::io::{self, Write};

use metro::{LineEnd, PlayerCount, Score, Square, StationLine};

/// Writes `{"sequence":…,"players":…,"scores":[…],"lines":[…]}` and a newline.
pub fn write_score_line<W: Write>(
    out: &mut W,
    sequence: &str,
    players: PlayerCount,
    score: &Score,
) -> io::Result<()> {
    out.write_all(b"{\"sequence\":")?;
    // The one value from the input: serde_json escapes it as it would anywhere else.
    serde_json::to_writer(&mut *out, sequence)?;
    out.write_all(b",\"players\":")?;
    number(out, u32::from(players.get()))?;
    out.write_all(b",\"scores\":[")?;
    for (i, &total) in score.totals.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        number(out, total)?;
    }
    out.write_all(b"],\"lines\":[")?;
    for (i, line) in score.lines.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        station_line(out, line)?;
    }
    out.write_all(b"]}\n")
}

/// `{"station":5,"squares":["03","13"],"length":2,"end":{…},"points":0,"owner":1}`: the
/// line's fields, then its owner (the order of `StationLine`'s flattened serialization).
fn station_line<W: Write>(out: &mut W, station_line: &StationLine) -> io::Result<()> {
    let line = &station_line.line;
    out.write_all(b"{\"station\":")?;
    number(out, u32::from(line.station.number()))?;
    out.write_all(b",\"squares\":[")?;
    for (i, &sq) in line.squares.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        square(out, sq)?;
    }
    out.write_all(b"],\"length\":")?;
    number(out, line.length)?;
    out.write_all(b",\"end\":{\"kind\":")?;
    match line.end {
        LineEnd::Centre { square: sq } => {
            out.write_all(b"\"centre\",\"square\":")?;
            square(out, sq)?;
        }
        LineEnd::Station { station } => {
            out.write_all(b"\"station\",\"station\":")?;
            number(out, u32::from(station.number()))?;
        }
        LineEnd::Unfinished { square: sq } => {
            out.write_all(b"\"unfinished\",\"square\":")?;
            square(out, sq)?;
        }
    }
    out.write_all(b"},\"points\":")?;
    number(out, line.points)?;
    out.write_all(b",\"owner\":")?;
    match station_line.owner {
        Some(p) => number(out, u32::from(p.number()))?,
        None => out.write_all(b"null")?,
    }
    out.write_all(b"}")
}

/// A square as its JSON string: `"03"`, row digit then column digit.
fn square<W: Write>(out: &mut W, sq: Square) -> io::Result<()> {
    out.write_all(&[b'"', b'0' + sq.row(), b'0' + sq.col(), b'"'])
}

/// A number in decimal.
fn number<W: Write>(out: &mut W, mut n: u32) -> io::Result<()> {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.write_all(&digits[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use metro::text;

    /// What serde_json writes for the same line (the struct `metro score --json` used before).
    fn by_serde(sequence: &str, players: PlayerCount, score: &Score) -> String {
        #[derive(serde::Serialize)]
        struct ScoreJson<'a> {
            sequence: &'a str,
            players: PlayerCount,
            scores: Option<&'a [u32]>,
            #[serde(skip_serializing_if = "Option::is_none")]
            lines: Option<&'a [StationLine]>,
        }
        let mut s = serde_json::to_string(&ScoreJson {
            sequence,
            players,
            scores: Some(&score.totals),
            lines: Some(&score.lines),
        })
        .unwrap();
        s.push('\n');
        s
    }

    #[test]
    fn writes_the_bytes_serde_json_writes() {
        // Sequences with lines ending at the centre, at stations, unfinished; long and empty.
        let game = "cbaa37cddb20ddbc75cccc27dacc67ddbc60dbcd65adbb06cbaa30bcdd01cccc73bbad16aacb74acba04cdac26dacc66acba10baac02bcbc36dada46dddd61baac72dbba31cbaa12aaaa40acba62aacb32aaaa41cdac42adad52dada45cbcb15bbbb63aacb55cbcb35bbad53dddd14badb11accd57badb21cbcb05cddb54adbb03adad76bcbc71bbbb56ccda51ccda17aaaa47dbcd24baac50baac00aacb70aaaa25cbaa22bcdd64bcbc23dbba13acba77accd07";
        let mut sequences = vec![
            String::new(),
            "aaaa03aaaa13aaaa23".to_owned(),
            "badb01baac02dbba10bcbc00".to_owned(),
            "aacb70bbbb60".to_owned(),
        ];
        sequences.extend((0..=game.len() / 6).map(|n| game[..6 * n].to_owned()));
        for seq in &sequences {
            let (_, board) = text::check(seq).unwrap();
            for n in 2..=6 {
                let players = PlayerCount::new(n).unwrap();
                let score = Score::new(&board, players);
                let mut mine = Vec::new();
                write_score_line(&mut mine, seq, players, &score).unwrap();
                assert_eq!(
                    String::from_utf8(mine).unwrap(),
                    by_serde(seq, players, &score),
                    "{seq} with {n} players"
                );
            }
        }
    }

    #[test]
    fn numbers() {
        for n in [0, 7, 10, 99, 100, 4_294_967_295] {
            let mut v = Vec::new();
            number(&mut v, n).unwrap();
            assert_eq!(String::from_utf8(v).unwrap(), n.to_string());
        }
    }
}
