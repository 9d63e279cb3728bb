//! Replays every fuzz target's corpus and every crash the fuzzer ever found (`fuzz/corpus/` and
//! `fuzz/regressions/`, one folder per target) through the same checks the targets run, so
//! that `cargo test` on stable keeps them passing without nightly or libFuzzer.

mod support;

use std::path::Path;

use support::{fuzz, fuzz_engines, fuzz_flat};

/// Runs `check` on every file of `fuzz/corpus/<target>` and `fuzz/regressions/<target>`;
/// returns how many files it read.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut replayed = 0;
    for folder in ["corpus", "regressions"] {
        let dir = root.join(folder).join(target);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.expect("readable entry").path()).collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).expect("readable corpus file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target} fails on {}", file.display());
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn text_world_corpus() {
    assert!(replay("text_world", fuzz::text_world) > 5);
}

#[test]
fn robot_grid_corpus() {
    assert!(replay("robot_grid", fuzz::robot_grid) > 5);
}

#[test]
fn movingai_map_corpus() {
    assert!(replay("movingai_map", fuzz::movingai_map) > 5);
}

#[test]
fn movingai_scen_corpus() {
    assert!(replay("movingai_scen", fuzz::movingai_scen) > 5);
}

#[test]
fn differential_corpus() {
    assert!(replay("differential", fuzz::differential) > 5);
}

#[test]
fn movingai_3dmap_corpus() {
    assert!(replay("movingai_3dmap", fuzz::movingai_3dmap) > 5);
}

#[test]
fn movingai_3dscen_corpus() {
    assert!(replay("movingai_3dscen", fuzz::movingai_3dscen) > 5);
}

#[test]
fn fly_jump_corpus() {
    assert!(replay("fly_jump", fuzz_engines::fly_jump) > 5);
}

#[test]
fn flat_jump_corpus() {
    assert!(replay("flat_jump", fuzz_flat::flat_jump) > 5);
}

#[test]
fn walk_columns_corpus() {
    assert!(replay("walk_columns", fuzz_engines::walk_columns) > 5);
}

#[test]
fn walk_long_corpus() {
    assert!(replay("walk_long", fuzz_engines::walk_long) > 5);
}

#[cfg(feature = "anvil")]
#[test]
fn anvil_region_corpus() {
    assert!(replay("anvil_region", fuzz::anvil_region) > 3);
}
