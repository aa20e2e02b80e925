//! Connections: accepting them, and closing those that hold the server without using it.
//!
//! `axum::serve` sets no timeouts, so a client that sends its headers a line at a time, or
//! keeps an idle connection open, holds a socket (a file descriptor) for ever; a few hundred
//! of them stop the server from accepting anyone. Here every connection is watched:
//!
//! - a request's headers must be complete within `header` of its first byte (a new
//!   connection's first request, within `header` of the connection);
//! - its body, whatever its length, must then be complete within `header` of the end of the
//!   headers;
//! - between requests, a keep-alive connection may stay idle for `idle`;
//! - once the request's body is in (read to its end, or dropped by the handler, or empty, as a
//!   `GET`'s), nothing times out while it is answered (a live-update stream, however long).
//!
//! The watch is on the reads: a read that waits past its deadline fails with `TimedOut`, and
//! hyper closes the connection. Whether a request is being answered is counted by the service
//! (a request in) and the response body (dropped once sent); whether its body is still to come,
//! by a wrapper of the request's body ([`RequestBody`]).
//!
//! A request that hyper cannot read (a byte a URL may not hold, a URL over 64 KB, a malformed
//! `Content-Length`, headers too large) never reaches the app: hyper answers it itself, with an
//! empty body, and closes the connection. That answer is replaced on its way out by the same
//! status with the API's JSON `error` ([`json_refusal`]).

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use bytes::{Buf, Bytes};
use futures_util::task::AtomicWaker;
use http_body_util::BodyExt;
use hyper::body::{Body as HttpBody, Frame, Incoming, SizeHint};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

use crate::http::admission::Admission;
use crate::waited::{Stamp, Timed};

/// How long a client may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// From a request's first byte (a connection's first request: from the connection) to
    /// the end of its headers.
    pub header: Duration,
    /// A keep-alive connection between requests.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
        }
    }
}

/// Requests of one connection being answered now, when the body of the one being read began
/// to be awaited (the end of its headers), and the read to wake when either changes (so that
/// its deadline does).
#[derive(Default)]
struct Busy {
    answering: AtomicUsize,
    body_since: Mutex<Option<Instant>>,
    reader: AtomicWaker,
}

impl Busy {
    fn body_since(&self) -> Option<Instant> {
        *self
            .body_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn set_body_since(&self, since: Option<Instant>) {
        *self
            .body_since
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = since;
    }
}

/// Held while a request is answered: from the service call until its body is dropped.
struct Answering(Arc<Busy>);

impl Answering {
    fn begin(busy: &Arc<Busy>) -> Answering {
        busy.answering.fetch_add(1, Ordering::AcqRel);
        Answering(busy.clone())
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        if self.0.answering.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.reader.wake();
        }
    }
}

/// A request's body, awaited (see [`Busy::body_since`]) until its last frame is read or it is
/// dropped.
struct RequestBody {
    inner: Incoming,
    /// While the body is awaited.
    busy: Option<Arc<Busy>>,
}

impl RequestBody {
    /// Called as the request's headers are in.
    fn new(inner: Incoming, busy: &Arc<Busy>) -> RequestBody {
        let busy = (!inner.is_end_stream()).then(|| {
            busy.set_body_since(Some(Instant::now()));
            busy.clone()
        });
        RequestBody { inner, busy }
    }

    fn done(&mut self) {
        if let Some(busy) = self.busy.take() {
            busy.set_body_since(None);
            busy.reader.wake();
        }
    }
}

impl Drop for RequestBody {
    fn drop(&mut self) {
        self.done();
    }
}

impl HttpBody for RequestBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let frame = Pin::new(&mut self.inner).poll_frame(cx);
        if frame.is_ready()
            && (self.inner.is_end_stream() || !matches!(frame, Poll::Ready(Some(Ok(_)))))
        {
            self.done();
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Reading a request's headers since then.
    Head(Instant),
    /// Waiting for another request since then.
    Idle(Instant),
    /// Answering a request whose body is awaited since then (the end of its headers).
    Body(Instant),
    /// Answering a request whose body is in: no deadline.
    Answering,
}

/// A TCP stream whose reads fail once the client has taken too long, and whose writes carry
/// hyper's own refusals as JSON.
struct Watched {
    inner: TcpStream,
    busy: Arc<Busy>,
    timeouts: Timeouts,
    phase: Phase,
    deadline: Pin<Box<Sleep>>,
    /// What is still to be written of a refusal written in hyper's place.
    refusal: Bytes,
}

impl Watched {
    fn new(inner: TcpStream, busy: Arc<Busy>, timeouts: Timeouts) -> Watched {
        let now = Instant::now();
        Watched {
            inner,
            busy,
            timeouts,
            phase: Phase::Head(now),
            deadline: Box::pin(tokio::time::sleep_until(now + timeouts.header)),
            refusal: Bytes::new(),
        }
    }

    /// Writes what is left of a refusal.
    fn poll_refusal(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.refusal.is_empty() {
            let n = std::task::ready!(Pin::new(&mut self.inner).poll_write(cx, &self.refusal))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.refusal.advance(n);
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` in place of hyper's refusal it is (see [`json_refusal`]): whether it was one.
    fn replace_refusal(&mut self, buf: &[u8]) -> bool {
        match json_refusal(buf) {
            Some(json) => {
                self.refusal = json;
                true
            }
            None => false,
        }
    }
}

/// The answer hyper writes itself to a request it cannot read, before any service sees it: a
/// status line (`400`, `414` or `431`) and exactly these headers, `connection: close`,
/// `content-length: 0` and `date` (an answer of the app's always carries more, such as
/// `x-content-type-options`). The same status, with the API's JSON `error` in words, and the
/// headers every API answer carries; `None` for anything else.
fn json_refusal(written: &[u8]) -> Option<Bytes> {
    // hyper's refusal is some 100 bytes, written at once.
    if written.len() > 256 || !written.starts_with(b"HTTP/1.1 4") {
        return None;
    }
    let head = std::str::from_utf8(written)
        .ok()?
        .strip_suffix("\r\n\r\n")?;
    let mut lines = head.split("\r\n");
    let status = lines.next()?.strip_prefix("HTTP/1.1 ")?;
    let error = match status.get(..3)? {
        "400" => {
            "the request cannot be read: its request line or a header is malformed (a URL's bytes outside printable ASCII are sent percent-encoded; Content-Length is one number)"
        }
        "414" => "the URL is too long: at most 65534 bytes",
        "431" => "the request's headers are too large (at most 100 headers, about 400 KB)",
        _ => return None,
    };
    let (mut close, mut empty, mut date) = (false, false, None);
    for line in lines {
        match line.split_once(": ")? {
            ("connection", "close") => close = true,
            ("content-length", "0") => empty = true,
            ("date", value) => date = Some(value),
            _ => return None,
        }
    }
    let date = date.filter(|_| close && empty)?;
    let body = serde_json::json!({ "error": error }).to_string();
    Some(Bytes::from(format!(
        "HTTP/1.1 {status}\r\n\
         content-type: application/json\r\n\
         content-length: {}\r\n\
         connection: close\r\n\
         date: {date}\r\n\
         x-content-type-options: nosniff\r\n\
         referrer-policy: no-referrer\r\n\
         x-frame-options: DENY\r\n\
         cache-control: no-store\r\n\
         \r\n\
         {body}",
        body.len()
    )))
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        this.busy.reader.register(cx.waker());
        let answering = this.busy.answering.load(Ordering::Acquire) > 0;
        this.phase = match (answering, this.busy.body_since(), this.phase) {
            (true, Some(since), _) => Phase::Body(since),
            (true, None, _) => Phase::Answering,
            (false, _, Phase::Answering | Phase::Body(_)) => Phase::Idle(Instant::now()),
            (false, _, phase) => phase,
        };
        let before = buf.filled().len();
        match Pin::new(&mut this.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before
                    && let Phase::Idle(_) = this.phase
                {
                    this.phase = Phase::Head(Instant::now());
                }
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                let (deadline, what) = match this.phase {
                    Phase::Answering => return Poll::Pending,
                    Phase::Head(since) => (since + this.timeouts.header, "request headers"),
                    Phase::Body(since) => (since + this.timeouts.header, "a request's body"),
                    Phase::Idle(since) => (since + this.timeouts.idle, "an idle connection"),
                };
                if this.deadline.deadline() != deadline {
                    this.deadline.as_mut().reset(deadline);
                }
                match this.deadline.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("{what} took too long"),
                    ))),
                    Poll::Pending => Poll::Pending,
                }
            }
        }
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_refusal(cx))?;
        if this.replace_refusal(buf) {
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.poll_refusal(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.poll_refusal(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.poll_refusal(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && this.replace_refusal(first)
        {
            return Poll::Ready(Ok(first.len()));
        }
        Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

/// Serves `app` on `listener` until `shutdown` turns `true`, then lets the requests in flight
/// finish (at most 10 s).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    admission: Arc<Admission>,
    timeouts: Timeouts,
    shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let stop = stopped(shutdown);
    tokio::pin!(stop);
    let mut reserve = Reserve::new();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) if is_out_of_files(&e) => {
                    reserve.refuse_one(&listener).await;
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let busy = Arc::new(Busy::default());
        let io = TokioIo::new(Watched::new(stream, busy.clone(), timeouts));
        let app = app.clone();
        let stamp = Stamp::new();
        let stamped = stamp.clone();
        let admission = admission.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let answering = Answering::begin(&busy);
            // Admitted or refused before anything else is done for it.
            let admitted = admission.decide(request.uri().path(), stamped.waited());
            let mut request = request.map(|body| RequestBody::new(body, &busy));
            request.extensions_mut().insert(ConnectInfo(peer));
            let app = app.clone();
            async move {
                let response = match admitted {
                    Ok(None) => app.oneshot(request).await.unwrap_or_else(|e| match e {}),
                    Ok(Some(place)) => crate::place::hold(place, app.oneshot(request))
                        .await
                        .unwrap_or_else(|e| match e {}),
                    Err(refused) => axum::response::IntoResponse::into_response(refused),
                };
                Ok::<_, Infallible>(response.map(move |body| {
                    Body::new(body.map_frame(move |frame| {
                        let _held = &answering;
                        frame
                    }))
                }))
            }
        });
        let connection = hyper::server::conn::http1::Builder::new()
            .keep_alive(true)
            .serve_connection(io, service);
        let connection = Timed::new(graceful.watch(connection), stamp);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(%peer, error = %e, "connection closed");
            }
        });
    }
    drop(listener);
    tokio::select! {
        _ = graceful.shutdown() => {}
        _ = tokio::time::sleep(Duration::from_secs(10)) => {
            tracing::warn!("connections still open 10 s after the stop: closing them");
        }
    }
    Ok(())
}

/// How many connections may wait to be accepted. A burst of new connections past this (the
/// players of a busy server coming back after a restart) would be dropped by the kernel, and
/// each client would try again only after a second; Linux caps it at `net.core.somaxconn`.
const BACKLOG: u32 = 4096;

/// A listener on `addr` (`host:port`: the first of its addresses that binds), with room for
/// [`BACKLOG`] connections waiting to be accepted.
pub async fn listen(addr: &str) -> io::Result<TcpListener> {
    let mut last = None;
    for at in tokio::net::lookup_host(addr).await? {
        let socket = if at.is_ipv4() {
            tokio::net::TcpSocket::new_v4()?
        } else {
            tokio::net::TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        match socket.bind(at).and_then(|()| socket.listen(BACKLOG)) {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(io::ErrorKind::InvalidInput, "the address names no host")
    }))
}

/// Whether an error says the process (or the system) has no file descriptor left.
fn is_out_of_files(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(libc::EMFILE | libc::ENFILE))
}

/// One file descriptor kept in reserve. With every other one taken, a connection waiting to be
/// accepted would hang until the client gave up; instead the reserve is closed, the connection
/// accepted and closed at once (refused: the client hears so at once), and the reserve opened
/// again. Refusals are counted and logged at most once a second; the server recovers by itself
/// as connections close.
struct Reserve {
    file: Option<std::fs::File>,
    refused: u64,
    logged: Option<std::time::Instant>,
}

impl Reserve {
    fn new() -> Reserve {
        Reserve {
            file: std::fs::File::open("/dev/null").ok(),
            refused: 0,
            logged: None,
        }
    }

    async fn refuse_one(&mut self, listener: &TcpListener) {
        self.file = None;
        match tokio::time::timeout(Duration::from_millis(10), listener.accept()).await {
            Ok(Ok((stream, _))) => {
                drop(stream);
                self.refused += 1;
            }
            // Another thread took the descriptor first, or the connection went away: wait a
            // moment rather than spin.
            _ => tokio::time::sleep(Duration::from_millis(10)).await,
        }
        self.file = std::fs::File::open("/dev/null").ok();
        if self
            .logged
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(1))
        {
            tracing::warn!(
                refused = self.refused,
                "out of file descriptors: new connections are closed at once until some close"
            );
            self.refused = 0;
            self.logged = Some(std::time::Instant::now());
        }
    }
}

async fn stopped(mut shutdown: watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stopped| *stopped).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATE: &str = "date: Sat, 28 Nov 2026 04:30:27 GMT";

    #[test]
    fn hypers_own_refusals_become_json_and_nothing_else_does() {
        for (status, words) in [
            ("400 Bad Request", "malformed"),
            ("414 URI Too Long", "too long"),
            ("431 Request Header Fields Too Large", "too large"),
        ] {
            let hyper = format!(
                "HTTP/1.1 {status}\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"
            );
            let json = json_refusal(hyper.as_bytes()).expect(status);
            let text = std::str::from_utf8(&json).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            assert!(
                head.starts_with(&format!("HTTP/1.1 {status}\r\n")),
                "{head}"
            );
            assert!(
                head.contains("content-type: application/json\r\n"),
                "{head}"
            );
            assert!(head.contains(&format!("content-length: {}\r\n", body.len())));
            assert!(head.contains(DATE), "{head}");
            let v: serde_json::Value = serde_json::from_str(body).unwrap();
            assert!(v["error"].as_str().unwrap().contains(words), "{v}");
        }
        for other in [
            // An answer of the app's: more headers, or a body.
            format!(
                "HTTP/1.1 400 Bad Request\r\nx-content-type-options: nosniff\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"
            ),
            format!("HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"),
            format!(
                "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 2\r\n{DATE}\r\n\r\n{{}}"
            ),
            format!(
                "HTTP/1.1 405 Method Not Allowed\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"
            ),
            format!("HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n{DATE}\r\n\r\n"),
            "HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n".to_owned(),
            String::new(),
        ] {
            assert_eq!(json_refusal(other.as_bytes()), None, "{other}");
        }
    }
}
