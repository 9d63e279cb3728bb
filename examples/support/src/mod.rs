//! Code shared by voxnav's example programs, its benches and some of its tests, kept out of
//! the library crate so that voxnav's public API holds no demo program, picture drawer or
//! benchmark runner.
//!
//! A directory of the voxnav package, not a crate: each example includes it with
//! `#[path = "support/src/mod.rs"] mod support;` (a bench or test with
//! `#[path = "../examples/support/src/mod.rs"]`). It was a path-only dev-dependency crate,
//! which `cargo package` drops, so the published crate's examples, benches and tests did not
//! build; as a module it ships inside the package and builds wherever the package does.
//! `tests/hardening_inputs.rs` includes it whole, so its unit tests run there.
//!
//! - [`args`]: reading input files with a size limit, checking an output path before the
//!   work, and the one-line error exit every example shares.
//! - [`picture`]: an RGB image with the few drawing operations the pictures need, written
//!   as PNG.
//! - [`timing`]: the process's CPU time, to tell a busy machine from a slow search.
//! - [`map`] and [`demo`]: the main example's work (route NPCs across the procedural
//!   terrain) and its top-down picture.
//! - [`flying`]: the flying query sets (Moving AI 3D `Simple` problems and a synthetic world
//!   of pillars) of `benches/fly.rs`, `examples/compare.rs` and `examples/movingai.rs`.
//! - [`minecraft`]: the Minecraft example's pairs on the surface and its picture of the
//!   loaded area, both bounded whatever the world.
//! - [`movingai`]: running Moving AI scenarios and comparing the lengths with the optimal ones.
//! - [`replan`]: the replanning benchmark of `replan_bench` (and `replan --bench`) and the
//!   helpers the replan demo shares with it.
//! - [`sets`]: the query sets and engine drivers of `benches/search.rs` and
//!   `examples/compare.rs`.

#![allow(
    dead_code,
    reason = "each example, bench or test uses a different part of the support module"
)]

pub mod args;
pub mod baseline;
#[cfg(feature = "terrain")]
pub mod demo;
#[cfg(feature = "terrain")]
pub mod flying;
#[cfg(feature = "terrain")]
pub mod map;
#[cfg(feature = "anvil")]
pub mod minecraft;
pub mod movingai;
pub mod picture;
#[cfg(feature = "terrain")]
pub mod replan;
#[cfg(feature = "terrain")]
pub mod sets;
pub mod timing;
