//! What one address may ask of the server: per-address rate limits on the requests that cost
//! (making games and players, joining, hints, reviews, link-preview pictures, challenge plays)
//! and a cap on its live-update streams. One layer, set up with the router; handlers count nothing.
//!
//! A refusal is `429 Too Many Requests` with `Retry-After` (seconds) and the API's JSON
//! `error`. The address is the connection's peer (see [`crate::conn`]); behind a reverse proxy
//! that the server is told to trust (`Config::trust_proxy`), it is the right-most address of
//! `X-Forwarded-For` instead: the one that proxy appended, which its client cannot choose.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use http_body_util::BodyExt;

use crate::network::Network;

/// Requests a minute allowed to one address, by kind (0: no limit), and its live-update
/// streams at once (0: no cap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `POST /api/{kind}/games`, a practice game, a rematch.
    pub games: u32,
    /// `POST /api/players`.
    pub players: u32,
    /// `POST /api/players` a day: at most this many at once, then one more every 24/N hours
    /// (a new identity is how one person would take a second ranked attempt).
    pub players_per_day: u32,
    /// `POST …/games/{id}/join`, and signing a device in (`POST /api/players/recover`,
    /// `…/link`, `…/passkey`, `…/passkey/finish`).
    pub joins: u32,
    /// `GET /api/ink/games/{id}/hint`.
    pub hints: u32,
    /// `GET /api/{kind}/games/{id}/review` (about a CPU-second each, until it is stored).
    pub reviews: u32,
    /// `GET /api/challenges/{id}/preview.png` (a picture drawn, unless kept).
    pub previews: u32,
    /// `POST /api/challenges/{id}/play`, `POST /api/challenges`.
    pub plays: u32,
    /// Open `…/events` streams.
    pub streams: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            games: 30,
            players: 10,
            players_per_day: 5,
            joins: 30,
            hints: 60,
            reviews: 20,
            previews: 60,
            plays: 30,
            streams: 50,
        }
    }
}

impl Limits {
    /// No limit at all.
    pub fn off() -> Limits {
        Limits {
            games: 0,
            players: 0,
            players_per_day: 0,
            joins: 0,
            hints: 0,
            reviews: 0,
            previews: 0,
            plays: 0,
            streams: 0,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Games,
    Players,
    Joins,
    Hints,
    Reviews,
    Previews,
    Plays,
}

impl Kind {
    fn what(self) -> &'static str {
        match self {
            Kind::Games => "games made",
            Kind::Players => "players made",
            Kind::Joins => "joins and sign-ins",
            Kind::Hints => "hints",
            Kind::Reviews => "reviews",
            Kind::Previews => "preview pictures",
            Kind::Plays => "challenge plays",
        }
    }

    /// The kind of a request, by its method and the shape of its path: any game's
    /// `/api/{kind}/games…` routes count alike. A `HEAD` is answered as a `GET` is (the same
    /// work, the body left out), and counts as one.
    fn of(method: &Method, path: &str) -> Option<Kind> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let method = if method == Method::HEAD {
            &Method::GET
        } else {
            method
        };
        match (method, parts.as_slice()) {
            (&Method::POST, ["api", "players"]) => Some(Kind::Players),
            (&Method::POST, ["api", "challenges"] | ["api", "challenges", _, "play"]) => {
                Some(Kind::Plays)
            }
            // A practice game, a rematch and a game played in the page make a game like any
            // other.
            (
                &Method::POST,
                ["api", _, "games"]
                | ["api", _, "games", "played"]
                | ["api", "challenges", _, "practice"]
                | ["api", _, "games", _, "rematch"]
                | ["api", "pool", _],
            ) => Some(Kind::Games),
            // Signing a device in as a player joins it to the player.
            (
                &Method::POST,
                ["api", _, "games", _, "join"]
                | ["api", "players", "recover" | "link" | "passkey"]
                | ["api", "players", "passkey", "finish"],
            ) => Some(Kind::Joins),
            (&Method::GET, ["api", _, "games", _, "hint"]) => Some(Kind::Hints),
            (&Method::GET, ["api", _, "games", _, "review"]) => Some(Kind::Reviews),
            (&Method::GET, ["api", "challenges", _, "preview.png"]) => Some(Kind::Previews),
            _ => None,
        }
    }
}

/// The limits in force, with what each address has used.
pub struct Limiter {
    limits: Limits,
    games: Option<DefaultKeyedRateLimiter<IpAddr>>,
    players: Option<DefaultKeyedRateLimiter<IpAddr>>,
    players_daily: Option<DefaultKeyedRateLimiter<IpAddr>>,
    joins: Option<DefaultKeyedRateLimiter<IpAddr>>,
    hints: Option<DefaultKeyedRateLimiter<IpAddr>>,
    reviews: Option<DefaultKeyedRateLimiter<IpAddr>>,
    previews: Option<DefaultKeyedRateLimiter<IpAddr>>,
    plays: Option<DefaultKeyedRateLimiter<IpAddr>>,
    streams: Arc<Mutex<HashMap<IpAddr, usize>>>,
    clock: DefaultClock,
    /// Whether the address is the one a proxy put in `X-Forwarded-For`.
    trust_proxy: bool,
}

fn per_minute(n: u32) -> Option<DefaultKeyedRateLimiter<IpAddr>> {
    NonZeroU32::new(n).map(|n| DefaultKeyedRateLimiter::keyed(Quota::per_minute(n)))
}

/// `n` at once, then one more every 24/`n` hours.
fn per_day(n: u32) -> Option<DefaultKeyedRateLimiter<IpAddr>> {
    let n = NonZeroU32::new(n)?;
    let every = std::time::Duration::from_secs(24 * 60 * 60) / n.get();
    Quota::with_period(every).map(|q| DefaultKeyedRateLimiter::keyed(q.allow_burst(n)))
}

impl Limiter {
    /// `trust_proxy`: take each request's address from `X-Forwarded-For` (see [`client`]).
    pub fn new(limits: Limits, trust_proxy: bool) -> Limiter {
        Limiter {
            limits,
            games: per_minute(limits.games),
            players: per_minute(limits.players),
            players_daily: per_day(limits.players_per_day),
            joins: per_minute(limits.joins),
            hints: per_minute(limits.hints),
            reviews: per_minute(limits.reviews),
            previews: per_minute(limits.previews),
            plays: per_minute(limits.plays),
            streams: Arc::default(),
            clock: DefaultClock::default(),
            trust_proxy,
        }
    }

    fn of(&self, kind: Kind) -> Option<&DefaultKeyedRateLimiter<IpAddr>> {
        match kind {
            Kind::Games => self.games.as_ref(),
            Kind::Players => self.players.as_ref(),
            Kind::Joins => self.joins.as_ref(),
            Kind::Hints => self.hints.as_ref(),
            Kind::Reviews => self.reviews.as_ref(),
            Kind::Previews => self.previews.as_ref(),
            Kind::Plays => self.plays.as_ref(),
        }
    }

    /// Forgets addresses whose allowance is whole again (run now and then).
    pub fn sweep(&self) {
        for limiter in [
            &self.games,
            &self.players,
            &self.players_daily,
            &self.joins,
            &self.hints,
            &self.reviews,
            &self.previews,
            &self.plays,
        ]
        .into_iter()
        .flatten()
        {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

fn too_many(message: String, retry_after: u64) -> Response {
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        axum::Json(serde_json::json!({ "error": message })),
    )
        .into_response();
    if let Ok(v) = HeaderValue::from_str(&retry_after.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

/// One open stream of an address, counted until its response body is dropped.
struct Stream {
    ip: IpAddr,
    streams: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        let mut map = self.streams.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

/// The address a request is counted against: the connection's peer, or, when the peer is a
/// trusted proxy, the right-most address of the last `X-Forwarded-For` header (the address the
/// proxy appended to what its client sent, which may be anything). A header that is missing,
/// not text, or whose last entry is not an address leaves the peer.
fn client(peer: IpAddr, headers: &HeaderMap, trust_proxy: bool) -> IpAddr {
    if !trust_proxy {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .next_back()
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.rsplit(',').next())
        .and_then(|last| parse_address(last.trim()))
        .unwrap_or(peer)
}

/// An address as a proxy writes it: `192.0.2.7`, `2001:db8::7`, or with a port
/// (`192.0.2.7:4711`, `[2001:db8::7]:4711`), or bracketed alone (`[2001:db8::7]`). An IPv4
/// address mapped into IPv6 counts as the IPv4 address.
fn parse_address(text: &str) -> Option<IpAddr> {
    let ip = text
        .parse::<IpAddr>()
        .ok()
        .or_else(|| text.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            text.strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .and_then(|t| t.parse::<IpAddr>().ok())
        })?;
    Some(ip.to_canonical())
}

/// The network a request came from (see [`Network`]), as the limits count it: handlers read it
/// from the request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct ClientNetwork(pub Network);

/// The layer: refuses what an address may not ask now.
pub async fn limit(
    State(limiter): State<Arc<Limiter>>,
    mut request: Request,
    next: Next,
) -> Response {
    let limiter = &*limiter;
    let Some(peer) = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
    else {
        return next.run(request).await;
    };
    // An IPv6 address counts as its /64: whoever has one address has the whole /64.
    let network = Network::of(client(peer, request.headers(), limiter.trust_proxy));
    request.extensions_mut().insert(ClientNetwork(network));
    let ip = network.ip();
    let path = request.uri().path();
    if let Some(kind) = Kind::of(request.method(), path) {
        if let Some(rate) = limiter.of(kind)
            && let Err(not_until) = rate.check_key(&ip)
        {
            let wait = not_until.wait_time_from(limiter.clock.now());
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return too_many(
                format!(
                    "too many {} from your address: try again in {secs} s",
                    kind.what()
                ),
                secs.max(1),
            );
        }
        if kind == Kind::Players
            && let Some(daily) = &limiter.players_daily
            && let Err(not_until) = daily.check_key(&ip)
        {
            let wait = not_until.wait_time_from(limiter.clock.now());
            let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            let hours = secs.div_ceil(3600);
            return too_many(
                format!(
                    "your address has made {} players today: keep playing as the one you have (its key carries it to another device), or try again in {hours} h",
                    limiter.limits.players_per_day
                ),
                secs.max(1),
            );
        }
    }
    let max = limiter.limits.streams;
    if max > 0 && request.method() == Method::GET && path.ends_with("/events") {
        let stream = {
            let mut map = limiter.streams.lock().unwrap_or_else(|e| e.into_inner());
            let n = map.entry(ip).or_insert(0);
            if *n >= max {
                drop(map);
                return too_many(
                    format!(
                        "your address has {max} live-update streams open already: close one (a tab of the game) first"
                    ),
                    5,
                );
            }
            *n += 1;
            Stream {
                ip,
                streams: limiter.streams.clone(),
            }
        };
        let response = next.run(request).await;
        return response.map(move |body| {
            Body::new(body.map_frame(move |frame| {
                let _held = &stream;
                frame
            }))
        });
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_classed_by_what_they_cost() {
        let post = Method::POST;
        let get = Method::GET;
        assert_eq!(Kind::of(&post, "/api/ink/games"), Some(Kind::Games));
        assert_eq!(Kind::of(&post, "/api/metro/games"), Some(Kind::Games));
        assert_eq!(Kind::of(&post, "/api/ink/games/played"), Some(Kind::Games));
        assert_eq!(Kind::of(&post, "/api/players"), Some(Kind::Players));
        assert_eq!(
            Kind::of(&post, "/api/ink/games/abc/join"),
            Some(Kind::Joins)
        );
        assert_eq!(
            Kind::of(&post, "/api/metro/games/abc/join"),
            Some(Kind::Joins)
        );
        assert_eq!(Kind::of(&get, "/api/ink/games/abc/hint"), Some(Kind::Hints));
        assert_eq!(
            Kind::of(&Method::HEAD, "/api/ink/games/abc/hint"),
            Some(Kind::Hints),
            "a HEAD does the work of a GET"
        );
        assert_eq!(
            Kind::of(&get, "/api/ink/games/abc/review"),
            Some(Kind::Reviews)
        );
        assert_eq!(
            Kind::of(&get, "/api/metro/games/abc/review"),
            Some(Kind::Reviews)
        );
        assert_eq!(
            Kind::of(&get, "/api/challenges/daily-x/preview.png"),
            Some(Kind::Previews)
        );
        assert_eq!(
            Kind::of(&Method::HEAD, "/api/challenges/daily-x/preview.png"),
            Some(Kind::Previews)
        );
        assert_eq!(Kind::of(&get, "/challenges/daily-x"), None, "the page");
        assert_eq!(Kind::of(&post, "/api/ink/games/abc/review"), None);
        assert_eq!(
            Kind::of(&post, "/api/ttt/games"),
            Some(Kind::Games),
            "any game"
        );
        assert_eq!(Kind::of(&post, "/api/ink/games/abc/join/x"), None);
        assert_eq!(
            Kind::of(&post, "/api/challenges/daily-x/play"),
            Some(Kind::Plays)
        );
        assert_eq!(Kind::of(&post, "/api/challenges"), Some(Kind::Plays));
        assert_eq!(Kind::of(&get, "/api/ink/games"), None);
        assert_eq!(Kind::of(&post, "/api/ink/games/abc/place"), None);
        assert_eq!(Kind::of(&get, "/api/challenges/current"), None);
    }

    fn forwarded(values: &[&[u8]]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append(
                "x-forwarded-for",
                HeaderValue::from_bytes(v).expect("a header value"),
            );
        }
        headers
    }

    #[test]
    fn the_client_is_the_proxys_right_most_forwarded_address_only_when_trusted() {
        let peer: IpAddr = "127.0.0.1".parse().unwrap();
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let cases: &[(&[&[u8]], &str)] = &[
            (&[b"203.0.113.9"], "203.0.113.9"),
            (&[b"198.51.100.1, 203.0.113.9"], "203.0.113.9"),
            (&[b"198.51.100.1,203.0.113.9 "], "203.0.113.9"),
            (&[b"198.51.100.1", b"203.0.113.9"], "203.0.113.9"),
            (&[b"2001:db8::7"], "2001:db8::7"),
            (&[b"[2001:db8::7]:4711"], "2001:db8::7"),
            (&[b"[2001:db8::7]"], "2001:db8::7"),
            (&[b"203.0.113.9:4711"], "203.0.113.9"),
            (&[b"::ffff:203.0.113.9"], "203.0.113.9"),
        ];
        for (values, want) in cases {
            let headers = forwarded(values);
            assert_eq!(client(peer, &headers, true), ip(want), "{values:?}");
            assert_eq!(client(peer, &headers, false), peer, "{values:?}");
        }
        // Malformed: the peer, trusted or not.
        let malformed: &[&[&[u8]]] = &[
            &[],
            &[b""],
            &[b"203.0.113.9, "],
            &[b"unknown"],
            &[b"203.0.113.9, nonsense"],
            &[b"203.0.113.9", b"bad"],
            &[b"999.1.1.1"],
            &[b"\xff\xfe"],
            &[b"[203.0.113.9"],
        ];
        for values in malformed {
            let headers = forwarded(values);
            assert_eq!(client(peer, &headers, true), peer, "{values:?}");
            assert_eq!(client(peer, &headers, false), peer, "{values:?}");
        }
    }
}
