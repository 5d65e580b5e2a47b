//! Operators' metrics, in Prometheus' text format (`GET /metrics` beside
//! `/healthz`, on the listener `serve --metrics ADDR` opens, with either
//! transport).
//!
//! One process-wide set of metrics (`prometheus-client`, the Prometheus
//! project's own Rust client). Recording is a few atomic operations; labels
//! come from small fixed sets (command names, outcomes), never from user
//! text, so the number of series stays bounded.
//!
//! | metric | type | labels |
//! | --- | --- | --- |
//! | `arbiter_requests_total` | counter | `command`, `outcome` (`ok`, `refused`, `error`, `busy`) |
//! | `arbiter_request_duration_seconds` | histogram | `command` |
//! | `arbiter_db_errors_total` | counter | — |
//! | `arbiter_pending_decisions` | gauge | — (set by the match service, [`set_pending_decisions`]) |
//! | `arbiter_http_connections` | gauge | — (open connections of the HTTP endpoint) |
//! | `arbiter_http_connections_closed_total` | counter | `reason` (`over_cap`, `evicted`, `idle_timeout`, `header_timeout`) |
//! | `arbiter_cpu_jobs` | gauge | — (judging/parsing jobs running in the CPU pool) |
//! | `arbiter_cpu_rejected_total` | counter | `reason` (`busy`, `share`, `too_slow`) |
//! | `arbiter_feedback_total` | counter | `verdict` (`up`, `down`, `right`): feedback on `/rule` answers |

use std::sync::OnceLock;

use prometheus_client::encoding::{EncodeLabelSet, EncodeLabelValue};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// How a request ended.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum Outcome {
    /// Answered (an answer, a ruling, an illegal-play ruling, a list).
    ok,
    /// Refused with a reason for the user (bad input, not allowed).
    refused,
    /// An internal error (logged with an error id).
    error,
    /// Refused for lack of capacity or time (the CPU pool).
    busy,
}

/// Why the HTTP endpoint closed a connection itself.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum Closed {
    /// Over the connection cap with nothing idle to evict: answered 503.
    over_cap,
    /// An idle connection closed to make room for a new one.
    evicted,
    /// No request within the idle timeout.
    idle_timeout,
    /// Request headers not complete within the header timeout.
    header_timeout,
}

/// Why the CPU pool refused a job.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq, EncodeLabelValue)]
#[allow(non_camel_case_types)]
pub enum Rejected {
    /// No worker free within the time budget.
    busy,
    /// No worker within the time budget while the job's server (or DM
    /// user) held its share of the workers (all but one).
    share,
    /// Still running when the time budget ran out.
    too_slow,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    command: String,
    outcome: Outcome,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CommandLabel {
    command: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ClosedLabel {
    reason: Closed,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VerdictLabel {
    verdict: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RejectedLabel {
    reason: Rejected,
}

struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<CommandLabel, Histogram>,
    db_errors: Counter,
    pending_decisions: Gauge,
    connections: Gauge,
    closed: Family<ClosedLabel, Counter>,
    cpu_jobs: Gauge,
    cpu_rejected: Family<RejectedLabel, Counter>,
    feedback: Family<VerdictLabel, Counter>,
}

fn latency_histogram() -> Histogram {
    // 1 ms … 32 s.
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

fn metrics() -> &'static Metrics {
    static METRICS: OnceLock<Metrics> = OnceLock::new();
    METRICS.get_or_init(|| {
        let mut registry = Registry::with_prefix("arbiter");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "requests",
            "Interactions answered, by command and outcome",
            requests.clone(),
        );
        let latency =
            Family::<CommandLabel, Histogram>::new_with_constructor(latency_histogram as fn() -> _);
        registry.register(
            "request_duration_seconds",
            "Time to answer an interaction (deferred ones: until the edit is sent)",
            latency.clone(),
        );
        let db_errors = Counter::default();
        registry.register(
            "db_errors",
            "Errors from the match database (connect, query, migration)",
            db_errors.clone(),
        );
        let pending_decisions = Gauge::default();
        registry.register(
            "pending_decisions",
            "Decisions players still have to make in active matches",
            pending_decisions.clone(),
        );
        let connections = Gauge::default();
        registry.register(
            "http_connections",
            "Open connections of the HTTP endpoint",
            connections.clone(),
        );
        let closed = Family::<ClosedLabel, Counter>::default();
        registry.register(
            "http_connections_closed",
            "Connections the HTTP endpoint closed itself, by reason",
            closed.clone(),
        );
        let cpu_jobs = Gauge::default();
        registry.register(
            "cpu_jobs",
            "Judging and parsing jobs running in the CPU pool",
            cpu_jobs.clone(),
        );
        let cpu_rejected = Family::<RejectedLabel, Counter>::default();
        registry.register(
            "cpu_rejected",
            "Jobs the CPU pool refused or gave up waiting for, by reason",
            cpu_rejected.clone(),
        );
        let feedback = Family::<VerdictLabel, Counter>::default();
        registry.register(
            "feedback",
            "Feedback on /rule answers, by verdict (counts only, never text)",
            feedback.clone(),
        );
        Metrics {
            feedback,
            registry,
            requests,
            latency,
            db_errors,
            pending_decisions,
            connections,
            closed,
            cpu_jobs,
            cpu_rejected,
        }
    })
}

/// Records one answered interaction. `command` must come from a fixed set
/// (see `bot::Input::metric_label`), never from user text.
pub fn request(command: &str, outcome: Outcome, seconds: f64) {
    let m = metrics();
    m.requests
        .get_or_create(&RequestLabels {
            command: command.to_string(),
            outcome,
        })
        .inc();
    m.latency
        .get_or_create(&CommandLabel {
            command: command.to_string(),
        })
        .observe(seconds);
}

/// Counts one piece of feedback on a `/rule` answer: `verdict` is `up`,
/// `down` or `right` (a fixed set, never user text).
pub fn feedback(verdict: &'static str) {
    metrics()
        .feedback
        .get_or_create(&VerdictLabel {
            verdict: verdict.to_string(),
        })
        .inc();
}

/// Counts a database error (called where sqlx errors become `StoreError`).
pub fn db_error() {
    metrics().db_errors.inc();
}

/// Sets the number of decisions players still have to make (the match
/// service keeps it current).
pub fn set_pending_decisions(n: i64) {
    metrics().pending_decisions.set(n);
}

/// The HTTP endpoint's open connections, up or down by one.
pub fn connection_opened() {
    metrics().connections.inc();
}

pub fn connection_closed() {
    metrics().connections.dec();
}

/// A connection the endpoint closed itself.
pub fn connection_dropped(reason: Closed) {
    metrics()
        .closed
        .get_or_create(&ClosedLabel { reason })
        .inc();
}

/// The CPU pool's running jobs, up or down by one.
pub fn cpu_job_started() {
    metrics().cpu_jobs.inc();
}

pub fn cpu_job_ended() {
    metrics().cpu_jobs.dec();
}

pub fn cpu_rejected(reason: Rejected) {
    metrics()
        .cpu_rejected
        .get_or_create(&RejectedLabel { reason })
        .inc();
}

/// Every metric in Prometheus' text exposition format.
pub fn encode() -> String {
    let mut out = String::new();
    if prometheus_client::encoding::text::encode(&mut out, &metrics().registry).is_err() {
        out.clear();
    }
    out
}

/// The `Content-Type` of [`encode`]'s output.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_values_appear_in_the_exposition() {
        request("rule", Outcome::ok, 0.004);
        request("rule", Outcome::refused, 0.002);
        db_error();
        set_pending_decisions(3);
        let text = encode();
        assert!(
            text.contains("arbiter_requests_total{command=\"rule\",outcome=\"ok\"}"),
            "{text}"
        );
        assert!(
            text.contains("arbiter_request_duration_seconds_bucket{le=\"0.004\",command=\"rule\"}")
                || text.contains(
                    "arbiter_request_duration_seconds_bucket{command=\"rule\",le=\"0.004\"}"
                ),
            "{text}"
        );
        assert!(text.contains("arbiter_pending_decisions 3"), "{text}");
        assert!(text.contains("# TYPE arbiter_db_errors counter"), "{text}");
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}
