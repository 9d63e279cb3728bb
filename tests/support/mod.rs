//! What the integration tests share: one seeded generator ([`rng`]), one set of world
//! builders ([`worlds`]), and the oracles the crate is checked against ([`oracle`]: the
//! walking rules restated independently of `voxnav::moves`, and exhaustive Dijkstra over them;
//! [`grid_oracle`]: breadth-first search and octile Dijkstra over 2D grids), a picture of a
//! walk graph to compare with a fresh compile ([`pictures`]), and the bodies of
//! the fuzz targets ([`fuzz`]; [`fuzz_engines`] and [`fuzz_flat`] for the engines),
//! which `fuzz/` and `tests/fuzz_replay.rs` share, and region files built in memory for the
//! Anvil loader ([`region`]).
//!
//! Each test file includes this module with `mod support;` and uses a different part of it.

#![allow(
    dead_code,
    reason = "each test file uses a different part of the support module"
)]

pub mod fuzz;
pub mod fuzz_engines;
pub mod fuzz_flat;
pub mod grid_oracle;
pub mod hier_worlds;
pub mod oracle;
pub mod pictures;
pub mod region;
pub mod rng;
pub mod worlds;

use voxnav::engine::Pathfinder;
use voxnav::{Agent, Error, MoveCosts};

/// A pathfinder for the default agent at the default costs.
pub fn pathfinder() -> Pathfinder {
    Pathfinder::new(Agent::default(), MoveCosts::default()).unwrap()
}

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

/// How many queries of a property test found a route and how many proved that none exists.
#[derive(Debug, Default)]
pub struct Outcomes {
    /// Queries that found a route.
    pub found: usize,
    /// Queries that proved the goal unreachable.
    pub unreachable: usize,
}

impl Outcomes {
    /// Counts one query, which found a route or not.
    pub fn record(&mut self, found: bool) {
        if found {
            self.found += 1;
        } else {
            self.unreachable += 1;
        }
    }

    /// Panics unless more than `found` queries found a route and more than `unreachable`
    /// proved none: a property test that never meets one of the two outcomes proves little.
    pub fn assert_both_seen(&self, found: usize, unreachable: usize) {
        assert!(
            self.found > found && self.unreachable > unreachable,
            "{} found, {} unreachable",
            self.found,
            self.unreachable
        );
    }
}
