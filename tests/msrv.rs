//! `rust-version` in Cargo.toml is true: at least every locked dependency's
//! own `rust-version` (as `cargo metadata` reports them for this machine's
//! platform) and at least 1.88, which our let-chains need. Clippy's
//! `incompatible_msrv` lint (on in CI with `-D warnings`) then checks that
//! our code uses no standard-library API newer than it.

use std::process::Command;

fn version(v: &str) -> Vec<u64> {
    v.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn rust_version_covers_every_locked_dependency() {
    let root = env!("CARGO_MANIFEST_DIR");
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let declared = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .map(|v| v.trim().trim_matches('"').to_string())
        .expect("Cargo.toml declares rust-version");
    let host = String::from_utf8(
        Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg("-vV")
            .output()
            .expect("rustc -vV")
            .stdout,
    )
    .unwrap()
    .lines()
    .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
    .expect("a host triple");
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--locked",
            "--offline",
            "--filter-platform",
            &host,
        ])
        .current_dir(root)
        .output()
        .expect("cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let resolved: Vec<&str> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["id"].as_str())
        .collect();
    let (needed, by) = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] != "arbiter" && resolved.contains(&p["id"].as_str().unwrap_or("")))
        .filter_map(|p| {
            Some((
                version(p["rust_version"].as_str()?),
                format!("{} {}", p["name"].as_str()?, p["version"].as_str()?),
            ))
        })
        .chain([(version("1.88"), "arbiter's let-chains".to_string())])
        .max()
        .unwrap();
    assert!(
        version(&declared) >= needed,
        "rust-version = \"{declared}\" but {by} needs {needed:?}"
    );
}
