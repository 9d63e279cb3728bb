//! The replanning benchmark: on QUERIES routes of 200+ blocks across the default terrain,
//! with the NPC part-way along and 1 to 10 blocks changed near the route ahead, it times a
//! fresh A*, D* Lite's repair and the `Replanner`, checks that all costs are equal on every
//! query, and prints a table.
//!
//! ```text
//! cargo run --release --example replan_bench -- 300 [--seed N]
//! ```
//!
//! `replan --bench QUERIES` runs the same code. The fresh search's time is the best of three
//! runs; each repair runs once (it changes its state), so a busy machine's noise counts
//! against the repairs. Bad input prints one line on stderr and exits with code 2.

use std::process::ExitCode;

use clap::Parser;
#[path = "support/src/mod.rs"]
mod support;
use support::args::finish;
use support::replan::bench;

/// Times replanning after block changes: a fresh A*, D* Lite's repair and the Replanner, on
/// the same queries, with equal costs checked on every query.
#[derive(Parser)]
#[command(name = "replan_bench")]
struct Args {
    /// How many replans to time (1 to 100000).
    #[arg(default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    queries: u32,
    /// The world's seed (the default terrain, 512 x 128 x 512).
    #[arg(long, default_value_t = 7)]
    seed: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    finish("replan_bench", bench(args.seed, args.queries as usize))
}
