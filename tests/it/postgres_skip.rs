//! Issue 28, item 11: on a machine without PostgreSQL a plain `cargo test`
//! passes, the PostgreSQL variants saying once that they were skipped and
//! how to run them; `ARBITER_REQUIRE_POSTGRES=1` (CI) makes them fail.

use crate::store_common;

use std::path::PathBuf;

use store_common::{PostgresPlan, postgres_plan};

#[test]
fn without_a_server_the_postgres_tests_are_skipped_and_say_how_to_run_them() {
    let PostgresPlan::Skip(why) = postgres_plan(None, None, false) else {
        panic!("skipped");
    };
    for want in [
        "the PostgreSQL tests were skipped",
        "apt-get install postgresql",
        "ARBITER_TEST_POSTGRES_URL",
        "ARBITER_REQUIRE_POSTGRES=1 makes them mandatory",
    ] {
        assert!(why.contains(want), "`{want}` missing: {why}");
    }
    // An empty URL is no URL.
    assert!(matches!(
        postgres_plan(Some(" ".into()), None, false),
        PostgresPlan::Skip(_)
    ));
}

#[test]
fn when_required_they_fail_instead() {
    let PostgresPlan::Fail(why) = postgres_plan(None, None, true) else {
        panic!("failed");
    };
    assert!(
        why.contains("ARBITER_REQUIRE_POSTGRES=1 makes the PostgreSQL tests mandatory")
            && why.contains("ARBITER_TEST_POSTGRES_URL"),
        "{why}"
    );
}

#[test]
fn a_url_or_server_binaries_run_them() {
    let url = "postgres://postgres@127.0.0.1:5432/postgres".to_string();
    assert_eq!(
        postgres_plan(Some(url.clone()), None, true),
        PostgresPlan::Url(url)
    );
    let bin = PathBuf::from("/usr/lib/postgresql/16/bin");
    assert_eq!(
        postgres_plan(None, Some(bin.clone()), false),
        PostgresPlan::Cluster(bin)
    );
}
