//! Fuzz target `flat_jump`: see `support::fuzz_flat::flat_jump` for what it checks.
#![no_main]

// The checks are shared with `tests/fuzz_replay.rs`, which replays this target's corpus
// and regressions on stable.
#[path = "../../tests/support/mod.rs"]
mod support;

libfuzzer_sys::fuzz_target!(|data: &[u8]| support::fuzz_flat::flat_jump(data));
