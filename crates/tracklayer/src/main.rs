//! `tracklayer`: the command line over the Railroad Ink and Metro engines, and the game server.

mod admin;
mod cli_io;
mod ink;
mod metro;

use std::io::Write as _;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Tile-laying board games: Railroad Ink (Deep Blue Edition) and Metro.
///
/// Without a command, serves the browser game on http://127.0.0.1:8080.
#[derive(Debug, Parser)]
#[command(
    name = "tracklayer",
    version,
    args_conflicts_with_subcommands = true,
    after_help = "Examples:\n  tracklayer                         serve the game\n  tracklayer --addr 0.0.0.0:9000     serve the game on another address\n  tracklayer ink score A4A10A4B10    score a Railroad Ink board\n  tracklayer metro check aaaa03      check a Metro sequence"
)]
struct Cli {
    #[command(flatten)]
    serve: ServeArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

/// Where the game server listens and keeps its games.
#[derive(Debug, Clone, Args)]
struct ServeArgs {
    /// The address to listen on (port 0 picks a free port).
    #[arg(long, env = "TRACKLAYER_ADDR", default_value = "127.0.0.1:8080")]
    addr: String,
    #[command(flatten)]
    db: DbArg,
    /// The search budget of the computer's own game on each daily, weekly and monthly challenge (the
    /// `strong` player's; default: its full strength, about 5 CPU-seconds a game).
    #[arg(long, env = "TRACKLAYER_CHALLENGE_BUDGET", value_name = "N")]
    challenge_budget: Option<u32>,
    /// Start the server's clock at this RFC 3339 time instead of now (for tests of days and
    /// weeks; it runs on from there).
    #[arg(long, env = "TRACKLAYER_NOW", value_name = "TIME", hide = true)]
    now: Option<String>,
    /// Close a connection whose request headers are not complete this many seconds after
    /// they began (a new connection's, after it opened).
    #[arg(
        long,
        env = "TRACKLAYER_HEADER_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 10.0
    )]
    header_timeout: f64,
    /// Close a keep-alive connection idle for this many seconds between requests (a
    /// live-update stream is never idle).
    #[arg(
        long,
        env = "TRACKLAYER_IDLE_TIMEOUT",
        value_name = "SECONDS",
        default_value_t = 60.0
    )]
    idle_timeout: f64,
    /// Games one address may make a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_GAMES", value_name = "N", default_value_t = server::Limits::default().games)]
    rate_games: u32,
    /// Players one address may make a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_PLAYERS", value_name = "N", default_value_t = server::Limits::default().players)]
    rate_players: u32,
    /// Players one address may make a day: that many at once, then one more every 24/N hours
    /// (0: no limit). An IPv6 address counts as its /64.
    #[arg(long, env = "TRACKLAYER_PLAYERS_PER_DAY", value_name = "N", default_value_t = server::Limits::default().players_per_day)]
    players_per_day: u32,
    /// Games one address may join a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_JOINS", value_name = "N", default_value_t = server::Limits::default().joins)]
    rate_joins: u32,
    /// Hints one address may ask for a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_HINTS", value_name = "N", default_value_t = server::Limits::default().hints)]
    rate_hints: u32,
    /// Game reviews one address may ask for a minute (0: no limit); a review not stored yet
    /// takes about a CPU-second.
    #[arg(long, env = "TRACKLAYER_RATE_REVIEWS", value_name = "N", default_value_t = server::Limits::default().reviews)]
    rate_reviews: u32,
    /// Challenge link-preview pictures one address may ask for a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_PREVIEWS", value_name = "N", default_value_t = server::Limits::default().previews)]
    rate_previews: u32,
    /// Challenge plays and friend challenges one address may start a minute (0: no limit).
    #[arg(long, env = "TRACKLAYER_RATE_PLAYS", value_name = "N", default_value_t = server::Limits::default().plays)]
    rate_plays: u32,
    /// API requests answered at once; past it, a request waits for a place only as long as
    /// --queue-wait allows, then is refused (503, Retry-After) (0: no bound).
    #[arg(long, env = "TRACKLAYER_MAX_IN_FLIGHT", value_name = "N", default_value_t = server::Capacity::default().in_flight)]
    max_in_flight: usize,
    /// The longest a request may have waited to begin, in milliseconds from its arrival, while
    /// the server keeps up; past capacity, 5 ms (0: no bound, never refused for waiting).
    #[arg(long, env = "TRACKLAYER_QUEUE_WAIT", value_name = "MS", default_value_t = server::Capacity::default().wait.as_millis() as u64)]
    queue_wait: u64,
    /// Hints waiting for a turn to think before another is refused at once (503).
    #[arg(long, env = "TRACKLAYER_MAX_HINTS_WAITING", value_name = "N", default_value_t = server::Capacity::default().hints_waiting)]
    max_hints_waiting: usize,
    /// Reviews waiting for a turn to think (after every hint and computer move) before another
    /// is refused at once (503).
    #[arg(long, env = "TRACKLAYER_MAX_REVIEWS_WAITING", value_name = "N", default_value_t = server::Capacity::default().reviews_waiting)]
    max_reviews_waiting: usize,
    /// Live-update streams one address may hold open at once (0: no cap).
    #[arg(long, env = "TRACKLAYER_MAX_STREAMS", value_name = "N", default_value_t = server::Limits::default().streams)]
    max_streams: usize,
    /// Every client comes through a reverse proxy (nginx) that appends its address to
    /// `X-Forwarded-For`: count the limits above against the right-most address of that header
    /// instead of the proxy's. Only with the server listening where no one but the proxy can
    /// reach it (such as 127.0.0.1), since a client could write the header itself. Without it
    /// the header is ignored.
    #[arg(
        long,
        env = "TRACKLAYER_TRUST_PROXY",
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    trust_proxy: bool,
    /// Rank one entry per network in a daily, weekly or monthly challenge (an IPv4 address, an IPv6
    /// /64): a second entry from the same network is played but ranked apart, below the ranks.
    /// `--rank-per-address false` ranks every entry, for a school or an office whose players
    /// share one address.
    #[arg(
        long,
        env = "TRACKLAYER_RANK_PER_ADDRESS",
        value_name = "BOOL",
        default_value = "true",
        action = clap::ArgAction::Set,
        value_parser = clap::builder::BoolishValueParser::new()
    )]
    rank_per_address: bool,
    /// Serve Prometheus metrics (`GET /metrics`) on this address, apart from the game's (never a
    /// public one: 127.0.0.1:9100, say); none by default.
    #[arg(long, env = "TRACKLAYER_METRICS_ADDR", value_name = "ADDR")]
    metrics_addr: Option<String>,
    /// The operator's address (`mailto:` or `https:`), given to the browsers' push services
    /// with each reminder sent by web push: how they reach whoever runs the server.
    #[arg(long, env = "TRACKLAYER_PUSH_CONTACT", value_name = "URL", default_value_t = server::PushConfig::default().contact)]
    push_contact: String,
    /// Seconds a turn waits before its "your turn" reminder (dropped if the turn was played).
    #[arg(long, env = "TRACKLAYER_PUSH_TURN_DELAY", value_name = "SECONDS", default_value_t = (server::PushConfig::default().turn_delay_ms / 1000) as u64)]
    push_turn_delay: u64,
    /// Accept plain http:// push endpoints (a test's stand-in push service; never on a public
    /// server, where any address could be named).
    #[arg(long, env = "TRACKLAYER_PUSH_ALLOW_HTTP", hide = true, value_parser = clap::builder::BoolishValueParser::new())]
    push_allow_http: bool,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Railroad Ink: check, score, roll dice, generate moves.
    #[command(subcommand)]
    Ink(ink::InkCommand),
    /// Metro: check, score, draw tiles, generate moves.
    #[command(subcommand)]
    Metro(metro::MetroCommand),
    /// Serve the browser game (the same as no command).
    #[command(
        after_help = "Examples:\n  tracklayer serve --addr 0.0.0.0:8080 --db /var/lib/tracklayer/games.sqlite\n  tracklayer serve --rate-games 0 --max-streams 0     no limit on making games, no cap on live-update streams\n  tracklayer serve --addr 127.0.0.1:8081 --trust-proxy\n                                                     behind nginx on the same machine, which appends each\n                                                     client's address to X-Forwarded-For (deploy/ has a sample)\n  tracklayer serve --rank-per-address false          a school's server: every entry of a challenge ranked"
    )]
    Serve(ServeArgs),
    /// The game server's database: check it, back it up, copy it.
    #[command(subcommand)]
    Db(DbCommand),
    /// The players' ratings.
    #[command(subcommand)]
    Ratings(RatingsCommand),
    /// Moderation: rename a player, hide an entry, stop a network from ranking, read the log.
    #[command(subcommand)]
    Admin(admin::AdminCommand),
}

#[derive(Debug, Subcommand)]
enum RatingsCommand {
    /// Make every rating again from the stored results alone (the rated games' places and the
    /// closed dailies' ranked entries, in the order they were rated): they come out the same.
    #[command(
        after_help = "Examples:\n  tracklayer ratings rebuild\n  tracklayer ratings rebuild --db postgres://tracklayer:secret@localhost:5432/tracklayer"
    )]
    Rebuild {
        #[command(flatten)]
        db: DbArg,
    },
}

#[derive(Debug, Subcommand)]
enum DbCommand {
    /// Check a database's integrity, as the server does before it starts: prints `ok`, or
    /// every problem found (exit status 1).
    #[command(
        after_help = "Examples:\n  tracklayer db check\n  tracklayer db check --db /var/lib/tracklayer/games.sqlite\n  tracklayer db check backup-2026-11-28.sqlite     a backup, before it is needed\n  tracklayer db check --db postgres://tracklayer:secret@localhost:5432/tracklayer"
    )]
    Check {
        /// The database to check, if not `--db`'s: a backup's file, say.
        #[arg(value_name = "FILE|URL", value_parser = database)]
        file: Option<server::Database>,
        #[command(flatten)]
        db: DbArg,
    },
    /// Back a SQLite database up while the server runs: a consistent copy into a new FILE
    /// (SQLite's online backup, not a file copy), with every action answered before it began,
    /// then checked. A PostgreSQL database is backed up with its own tools (docs/public.md).
    #[command(
        after_help = "Examples:\n  tracklayer db backup /var/backups/tracklayer-$(date +%F).sqlite --db /var/lib/tracklayer/games.sqlite\n  tracklayer db backup copy.sqlite\n\nFILE must not exist: nothing is overwritten."
    )]
    Backup {
        /// The new file the copy goes to.
        #[arg(value_name = "FILE")]
        to: std::path::PathBuf,
        #[command(flatten)]
        db: DbArg,
    },
    /// Copy every game (setups, seats, actions, results), player and challenge into another,
    /// empty database: to move from one SQLite file to PostgreSQL and several processes.
    #[command(
        after_help = "Examples:\n  tracklayer db copy --from tracklayer.sqlite --to postgres://tracklayer:secret@localhost:5432/tracklayer\n\nStop the server first: games played during the copy would not be copied."
    )]
    Copy {
        /// Where the games are now: a SQLite file or a PostgreSQL URL.
        #[arg(long, value_name = "FILE|URL", value_parser = database)]
        from: server::Database,
        /// The empty database to copy them into (its tables are made).
        #[arg(long, value_name = "FILE|URL", value_parser = database)]
        to: server::Database,
    },
}

/// `--db`, for the server and `db check`.
#[derive(Debug, Clone, Args)]
struct DbArg {
    /// The database: a SQLite file (created if missing), or a PostgreSQL URL
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE` shared by any number of server processes.
    #[arg(
        long = "db",
        env = "TRACKLAYER_DB",
        default_value = "tracklayer.sqlite",
        value_name = "FILE|URL",
        value_parser = database
    )]
    database: server::Database,
}

/// A `--db`, `--from` or `--to` value: a `postgres://` URL or a file's path.
fn database(text: &str) -> Result<server::Database, std::convert::Infallible> {
    Ok(server::Database::parse(text))
}

/// `tracklayer db check`.
/// A usage error (status 2) when `database` is a SQLite file that does not exist: a command
/// that reads a database makes none (`flag` names the option that gives it).
fn missing(database: &server::Database, flag: &str) -> Option<ExitCode> {
    let server::Database::Sqlite(path) = database else {
        return None;
    };
    if path.exists() {
        return None;
    }
    eprintln!("error: there is no database at {database}: give its path with {flag}");
    Some(ExitCode::from(2))
}

fn db_check(database: &server::Database) -> ExitCode {
    if let Some(code) = missing(database, "--db") {
        return code;
    }
    match server::storage::check_blocking(database) {
        Ok(problems) if problems.is_empty() => {
            // A closed output pipe is no reason to panic: the status says it all.
            let _ = writeln!(std::io::stdout(), "{database}: ok");
            ExitCode::SUCCESS
        }
        Ok(problems) => {
            let mut out = std::io::stdout().lock();
            for p in &problems {
                let _ = writeln!(out, "{database}: {p}");
            }
            eprintln!(
                "the database is damaged: restore it from a backup, or move it away to start with an empty one"
            );
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: cannot check {database}: {e}");
            ExitCode::from(2)
        }
    }
}

/// `tracklayer db backup`: the copy, then its check.
fn db_backup(database: &server::Database, to: &std::path::Path) -> ExitCode {
    if let Some(code) = missing(database, "--db") {
        return code;
    }
    let (pages, bytes) = match server::storage::backup(database, to) {
        Ok(copied) => copied,
        Err(e) => {
            eprintln!("error: cannot back {database} up to {}: {e}", to.display());
            return ExitCode::from(1);
        }
    };
    let copy = server::Database::Sqlite(to.to_owned());
    match server::storage::check_blocking(&copy) {
        Ok(problems) if problems.is_empty() => {
            let _ = writeln!(
                std::io::stdout(),
                "{database}: backed up to {} ({pages} pages, {} KB): ok",
                to.display(),
                bytes.div_ceil(1024)
            );
            ExitCode::SUCCESS
        }
        Ok(problems) => {
            for p in &problems {
                eprintln!("{}: {p}", to.display());
            }
            eprintln!("error: the copy is damaged: take the backup again");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("error: cannot check the copy {}: {e}", to.display());
            ExitCode::from(1)
        }
    }
}

/// `tracklayer ratings rebuild`.
fn ratings_rebuild(database: &server::Database) -> ExitCode {
    if let Some(code) = missing(database, "--db") {
        return code;
    }
    match server::ratings::rebuild_blocking(database) {
        Ok(rated) => {
            let _ = writeln!(
                std::io::stdout(),
                "{database}: every rating made again from {rated} rated games and challenges"
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot rebuild the ratings of {database}: {e}");
            ExitCode::from(1)
        }
    }
}

/// `tracklayer db copy`.
fn db_copy(from: &server::Database, to: &server::Database) -> ExitCode {
    if let Some(code) = missing(from, "--from") {
        return code;
    }
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let result = server::storage::copy::copy_blocking(from, to, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    match result {
        Ok(c) => {
            let _ = writeln!(
                std::io::stdout(),
                "copied {} games ({} actions), {} players and {} challenges from {from} to {to}",
                c.games,
                c.actions,
                c.players,
                c.challenges
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: cannot copy {from} to {to}: {e}");
            ExitCode::from(1)
        }
    }
}

/// glibc's allocator, set for a long-running server: two arenas instead of eight a core, and
/// fixed thresholds for giving memory back (the server also trims its heaps once a minute:
/// `server`'s `memory` module). The server's requests run on many threads (async workers, the
/// blocking pool of storage reads and computer players); with glibc's defaults each thread
/// gets an arena that keeps what it frees, and the process's memory followed the highest it
/// ever needed. Under the soak (`docs/public.md`, "Memory"), with the same dozen games in
/// memory throughout: defaults, 58 MB at minute 6 and 78 MB at minute 30; two arenas alone,
/// 29 and 38 MB; with the fixed thresholds and the trim, 19.7 and 20.1 MB.
/// `MALLOC_ARENA_MAX` in the environment still wins.
fn limit_malloc_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        // SAFETY: `mallopt` takes no pointer; it only sets a glibc allocator parameter. It is
        // called first thing in `main`, while this is the only thread, so no allocation races
        // it. Measured to matter (see above).
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: as above. Fixed thresholds (glibc's defaults, 128 KiB) stop glibc from raising
    // them after a large block is freed (up to 32 MiB for mmap and 64 MiB for trimming), which
    // would keep the top of the heap from ever going back to the system.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 * 1024);
    }
}

fn main() -> ExitCode {
    limit_malloc_arenas();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Ink(cmd)) => cli_io::run_command(|out| ink::run(cmd, out)),
        Some(Command::Metro(cmd)) => cli_io::run_command(|out| metro::run(cmd, out)),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Db(DbCommand::Check { file, db })) => {
            db_check(file.as_ref().unwrap_or(&db.database))
        }
        Some(Command::Db(DbCommand::Backup { to, db })) => db_backup(&db.database, &to),
        Some(Command::Db(DbCommand::Copy { from, to })) => db_copy(&from, &to),
        Some(Command::Ratings(RatingsCommand::Rebuild { db })) => ratings_rebuild(&db.database),
        Some(Command::Admin(command)) => admin::run(command),
        None => serve(cli.serve),
    }
}

/// Runs the game server until Ctrl-C or SIGTERM.
fn serve(args: ServeArgs) -> ExitCode {
    server::init_logging();
    let clock = match args.now.as_deref().map(server::Clock::parse) {
        None => server::Clock::real(),
        Some(Ok(clock)) => clock,
        Some(Err(e)) => {
            eprintln!("error: TRACKLAYER_NOW: {e}");
            return ExitCode::from(2);
        }
    };
    let mut config = server::Config::new(args.addr, args.db.database);
    config.clock = clock;
    config.challenge_budget = args.challenge_budget;
    for (flag, secs) in [
        ("--header-timeout", args.header_timeout),
        ("--idle-timeout", args.idle_timeout),
    ] {
        if !(secs.is_finite() && secs > 0.0 && secs <= 86_400.0) {
            eprintln!("error: {flag} is a number of seconds above 0 and at most 86400, not {secs}");
            return ExitCode::from(2);
        }
    }
    config.limits = server::Limits {
        games: args.rate_games,
        players: args.rate_players,
        players_per_day: args.players_per_day,
        joins: args.rate_joins,
        hints: args.rate_hints,
        reviews: args.rate_reviews,
        previews: args.rate_previews,
        plays: args.rate_plays,
        streams: args.max_streams,
    };
    config.trust_proxy = args.trust_proxy;
    config.rank_per_address = args.rank_per_address;
    config.metrics_addr = args.metrics_addr.clone();
    config.push = server::PushConfig {
        contact: args.push_contact.clone(),
        allow_http: args.push_allow_http,
        turn_delay_ms: i64::try_from(args.push_turn_delay.saturating_mul(1000)).unwrap_or(i64::MAX),
    };
    config.capacity = server::Capacity {
        in_flight: args.max_in_flight,
        wait: std::time::Duration::from_millis(args.queue_wait),
        hints_waiting: args.max_hints_waiting,
        reviews_waiting: args.max_reviews_waiting,
    };
    config.timeouts = server::Timeouts {
        header: std::time::Duration::from_secs_f64(args.header_timeout),
        idle: std::time::Duration::from_secs_f64(args.idle_timeout),
    };
    match server::run(config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}
