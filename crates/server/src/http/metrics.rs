//! `GET /metrics` on the metrics address (`--metrics-addr`): what `crate::telemetry` recorded,
//! and the gauges read at the moment of asking.

use axum::Router;
use axum::extract::State;
use axum::routing::get;
use metrics_exporter_prometheus::PrometheusHandle;
use tokio::net::TcpListener;

use crate::state::AppState;

/// Serves `GET /metrics` on `listener` until `stop`.
pub async fn serve(
    listener: TcpListener,
    app: AppState,
    places: usize,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    let Some(handle) = crate::telemetry::handle() else {
        tracing::warn!("another metrics recorder is installed: no metrics served");
        return;
    };
    crate::telemetry::admission_limit(places);
    let router = Router::new()
        .route("/metrics", get(render))
        .with_state((app, handle));
    let served = axum::serve(listener, router).with_graceful_shutdown(async move {
        let _ = stop.changed().await;
    });
    if let Err(e) = served.await {
        tracing::warn!(error = %e, "the metrics address stopped serving");
    }
}

/// The metrics now, the gauges read at the moment of asking.
async fn render(State((app, handle)): State<(AppState, &'static PrometheusHandle)>) -> String {
    metrics::gauge!("tracklayer_games_in_memory").set(app.loaded() as f64);
    let (people, computers) = app.thinkers.waiting();
    metrics::gauge!("tracklayer_thinking_waiting", "for" => "people").set(people as f64);
    metrics::gauge!("tracklayer_thinking_waiting", "for" => "computers").set(computers as f64);
    if let Some(bytes) = resident_bytes() {
        metrics::gauge!("tracklayer_process_resident_bytes").set(bytes as f64);
    }
    if let Ok(counts) = app.storage.pool_counts().await {
        for (kind, n) in counts {
            metrics::gauge!("tracklayer_pool_waiting", "game" => kind).set(n as f64);
        }
    }
    if let Ok(n) = app.storage.deadlines_kept().await {
        metrics::gauge!("tracklayer_deadlines_waiting").set(n as f64);
    }
    handle.run_upkeep();
    handle.render()
}

/// The process's resident memory, in bytes (Linux: `VmRSS`).
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb * 1024)
}
