//! The integration tests, in one binary (one link of serenity, sqlx and axum
//! instead of one per file): each file of this folder is a module; the
//! helpers shared with the engine tests, the benchmarks and the examples stay
//! in their folders beside it (tests/common, tests/discord_kit,
//! tests/store_common, tests/import_support, tests/eval). A test that needs
//! a process of its own has its own binary: tests/match_cpu_pool.rs and
//! tests/upload_cpu_pool.rs (the CPU pool's limits are per process), tests/http_limits.rs (1,100 open
//! connections and latency bounds), tests/store_crash.rs and
//! tests/store_processes.rs (they run a copy of the binary they have just
//! written: a child that another test forks meanwhile holds the copy open,
//! and running it fails with "Text file busy"), tests/msrv.rs (run first, by
//! name, in CI).

#[path = "../common/mod.rs"]
mod common;
#[path = "../discord_kit/mod.rs"]
mod discord_kit;
#[path = "../eval/mod.rs"]
mod eval;
#[path = "../import_support/hostile.rs"]
mod hostile;
#[allow(dead_code)]
#[path = "../import_support/pdf.rs"]
mod pdf;
#[path = "../store_common/mod.rs"]
mod store_common;

mod cards;
mod citations;
mod cli;
mod console;
mod corpus;
mod cpu_share;
mod http_interactions;
mod http_match;
mod http_probe;
mod http_replicas;
mod http_rules;
mod import;
mod match_arguments;
mod match_disputes;
mod match_integrity;
mod match_numbered;
mod match_permits;
mod match_record;
mod match_seats;
mod match_turns;
mod match_whole_log;
mod pictures;
mod postgres_skip;
mod rule_sets;
mod search;
mod search_eval;
mod secrets;
mod semantic;
mod slang;
mod store_ashes;
mod store_concurrency;
mod store_games;
mod store_matches;
mod store_migrations;
mod structure;
mod upload_hostile;
mod whole_match;
