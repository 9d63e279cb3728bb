//! The main example: generate the built-in procedural world, route a batch of NPCs across it
//! at distances from 16 to 400 blocks, print what each search did, and write a picture.
//!
//! ```sh
//! cargo run --release --example terrain
//! cargo run --release --example terrain -- --seed 7 --size 256 --pairs 12 --out map.png
//! ```
//!
//! The picture (`terrain.png` by default) is the world seen from above: land shaded by
//! height, water blue, lava orange; violet where a search expanded nodes; each route a
//! thick outlined line from a disc (its start) to a square (its goal), both labelled with
//! the route's number in the table.

use std::process::ExitCode;

use clap::Parser;
use voxnav::terrain::TerrainConfig;
#[path = "support/src/mod.rs"]
mod support;
use support::args::{Output, finish};
use support::demo::{DemoConfig, run_demo};

/// Generates the procedural terrain, routes NPCs across it, prints a table of the searches
/// and writes a top-down picture of the routes and of the searches' effort.
#[derive(Parser)]
#[command(name = "terrain")]
struct Args {
    /// The world's seed: the same seed gives the same world on every machine.
    #[arg(long, default_value_t = TerrainConfig::default().seed)]
    seed: u64,
    /// The world's width and depth in blocks (8 to 4096; it is 128 tall). Above 4096 a world
    /// needs gigabytes.
    #[arg(long, default_value_t = TerrainConfig::default().size_x,
          value_parser = clap::value_parser!(i32).range(8..=4096))]
    size: i32,
    /// How many start/goal pairs to route (1 to 10000), at distances from 16 blocks to 400
    /// (at most 80% of --size).
    #[arg(long, default_value_t = DemoConfig::default().pairs as u32,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pairs: u32,
    /// Where to write the picture (PNG); checked before the work starts.
    #[arg(long, value_name = "FILE.png", default_value = "terrain.png")]
    out: String,
}

fn run(args: &Args) -> Result<(), String> {
    let out = Output::create(&args.out)?;
    // A world as tall as the default one; only its width and depth change.
    let terrain = TerrainConfig::default()
        .with_seed(args.seed)
        .with_size(args.size, 128, args.size);
    let config = DemoConfig::default()
        .with_terrain(terrain)
        .with_pairs(args.pairs as usize);
    let report = run_demo(&config).map_err(|e| e.to_string())?;
    println!(
        "generated a {} x 128 x {} world (seed {}) in {:.1} ms",
        args.size,
        args.size,
        args.seed,
        report.generation.as_secs_f64() * 1e3
    );
    print!("{}", report.table());
    println!("{}", report.summary());
    if let Some(note) = report.skipped_note() {
        println!("{note}");
    }
    println!(
        "the searches expanded nodes in {} of {} columns ({:.2}%)",
        report.explored_columns,
        report.total_columns,
        100.0 * report.explored_columns as f64 / report.total_columns as f64
    );
    println!();
    print!("{}", report.explanation());
    let picture = report.map.render();
    let (width, height) = (picture.width(), picture.height());
    picture.write_png(out)?;
    println!();
    println!(
        "wrote {} ({width} x {height} pixels): land shaded by height, water blue, lava \
         orange; violet where a search expanded nodes; each route a line from a disc (start) \
         to a square (goal), both labelled with its # in the table",
        args.out,
    );
    Ok(())
}

fn main() -> ExitCode {
    finish("terrain", run(&Args::parse()))
}
