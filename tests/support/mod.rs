//! What the integration tests share: one seeded generator ([`rng`]), one set of world
//! builders ([`worlds`]), and the oracles the crate is checked against ([`oracle`]: the
//! walking rules restated independently of `voxnav::moves`, and exhaustive Dijkstra over them;
//! [`grid_oracle`]: breadth-first search and octile Dijkstra over 2D grids), and the bodies of
//! the fuzz targets ([`fuzz`]), which `fuzz/` and `tests/fuzz_replay.rs` share, and region
//! files built in memory for the Anvil loader ([`region`]).
//!
//! Each test file includes this module with `mod support;` and uses a different part of it.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the support module"
)]

pub mod fuzz;
pub mod grid_oracle;
pub mod oracle;
pub mod region;
pub mod rng;
pub mod worlds;

use voxnav::Error;

/// The line, column and message of a parse error; panics (failing the test) on any other
/// answer.
pub fn parse_error(result: Result<impl std::fmt::Debug, Error>) -> (usize, usize, String) {
    match result {
        Err(Error::Parse {
            line,
            column,
            message,
        }) => (line, column, message),
        other => panic!("expected a parse error, got {other:?}"),
    }
}
