//! Connections: accepting them, and closing those that hold the server without using it.
//!
//! `axum::serve` sets no timeouts, so a client that sends its headers a line at a time, or
//! keeps an idle connection open, holds a socket (a file descriptor) for ever; a few hundred
//! of them stop the server from accepting anyone. Here every connection is watched:
//!
//! - a request's headers must be complete within `header` of its first byte (a new
//!   connection's first request, within `header` of the connection);
//! - between requests, a keep-alive connection may stay idle for `idle`;
//! - while a request is being answered (a live-update stream, however long) nothing times out.
//!
//! The watch is on the reads: a read that waits past its deadline fails with `TimedOut`, and
//! hyper closes the connection. Whether a request is being answered is counted by the service
//! (a request in) and the response body (dropped once sent).

use std::convert::Infallible;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use futures_util::task::AtomicWaker;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::{Instant, Sleep};
use tower::ServiceExt;

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

/// Requests of one connection being answered now, and the read to wake when the last is done
/// (so that its idle deadline starts).
#[derive(Default)]
struct Busy {
    answering: AtomicUsize,
    reader: AtomicWaker,
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

#[derive(Debug, Clone, Copy)]
enum Phase {
    /// Reading a request's headers since then.
    Head(Instant),
    /// Waiting for another request since then.
    Idle(Instant),
    /// Answering a request: no deadline.
    Answering,
}

/// A TCP stream whose reads fail once the client has taken too long.
struct Watched {
    inner: TcpStream,
    busy: Arc<Busy>,
    timeouts: Timeouts,
    phase: Phase,
    deadline: Pin<Box<Sleep>>,
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
        }
    }
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
        this.phase = match (answering, this.phase) {
            (true, _) => Phase::Answering,
            (false, Phase::Answering) => Phase::Idle(Instant::now()),
            (false, phase) => phase,
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
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
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
    timeouts: Timeouts,
    shutdown: watch::Receiver<bool>,
) -> io::Result<()> {
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let stop = stopped(shutdown);
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors, say: wait for connections to close rather than
                    // spin; the timeouts above close the idle ones.
                    tracing::warn!(error = %e, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let _ = stream.set_nodelay(true);
        let busy = Arc::new(Busy::default());
        let io = TokioIo::new(Watched::new(stream, busy.clone(), timeouts));
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            let answering = Answering::begin(&busy);
            let app = app.clone();
            async move {
                let response = app.oneshot(request).await.unwrap_or_else(|e| match e {});
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
        let connection = graceful.watch(connection);
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

async fn stopped(mut shutdown: watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|stopped| *stopped).await;
}
