//! Code shared by voxnav's example programs, its benches and some of its tests, kept out of
//! the library crate so that voxnav's public API holds no demo program, picture drawer or
//! benchmark runner.
//!
//! This is a dev-only crate (`publish = false`), a member of voxnav's workspace and a
//! dev-dependency of voxnav: an example or bench uses it as `voxnav_support::...`, as it
//! would any crate, with no `#[path]` includes.
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

pub mod args;
pub mod demo;
pub mod flying;
pub mod map;
pub mod minecraft;
pub mod movingai;
pub mod picture;
pub mod replan;
pub mod sets;
pub mod timing;
