//! Runs a Moving AI benchmark scenario file through voxnav's A* and checks the lengths.
//!
//! ```sh
//! cargo run --release --example movingai -- tests/data/arena.map.scen
//! cargo run --release --example movingai -- tests/data/den312d.map.scen --map tests/data/den312d.map
//! ```
//!
//! The map is looked for beside the scenario file (`x.map.scen` -> `x.map`) unless `--map`
//! names it. Every scenario is planned with 8-connected moves without corner cutting at
//! octile costs; the route's length, computed from its moves (straight 1, diagonal sqrt 2),
//! is compared with the scenario's optimal length within 1e-4 relative. The summary ends
//! with `N passed, M failed`. Exit status: 0 whatever the comparison, 2 on bad input.
//!
//! On the public Moving AI maps `arena`, `den312d` (both in `tests/data/`) and `arena2`
//! (Dragon Age: Origins), the counts are exact; the rates are from one run on a shared 2-core
//! machine and varied by a factor of two or more with its load:
//!
//! | map | size | scenarios | result | expansions | expansions per second |
//! |---|---|---|---|---|---|
//! | arena | 49 x 49 | 160 | 160 passed, 0 failed | 4 983 | 2.1 million |
//! | den312d | 65 x 81 | 320 | 320 passed, 0 failed | 183 065 | 1.6 million |
//! | arena2 | 281 x 209 | 929 | 929 passed, 0 failed | 5 193 987 | 2.0 million |

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use voxnav::{GridPlanner, parse_movingai_map, parse_movingai_scen};
use voxnav_support::movingai::{LENGTH_TOLERANCE, run_scenarios};

const USAGE: &str = "usage: movingai <x.map.scen> [--map <x.map>]";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("movingai: {message}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut scen_path = None;
    let mut map_path = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--map" => {
                let path = args
                    .next()
                    .ok_or_else(|| format!("--map needs a file; {USAGE}"))?;
                map_path = Some(PathBuf::from(path));
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            _ if scen_path.is_none() && !arg.starts_with("--") => {
                scen_path = Some(PathBuf::from(arg));
            }
            _ => return Err(format!("unexpected argument `{arg}`; {USAGE}")),
        }
    }
    let scen_path = scen_path.ok_or_else(|| format!("no scenario file given; {USAGE}"))?;
    let map_path = match map_path {
        Some(path) => path,
        None => scen_path
            .to_str()
            .and_then(|s| s.strip_suffix(".scen"))
            .map(PathBuf::from)
            .ok_or_else(|| {
                format!(
                    "{} does not end in .scen, so the map cannot be found beside it: give --map",
                    scen_path.display()
                )
            })?,
    };

    let grid = parse_movingai_map(&read(&map_path)?)
        .map_err(|e| format!("{}: {e}", map_path.display()))?;
    let scenarios = parse_movingai_scen(&read(&scen_path)?)
        .map_err(|e| format!("{}: {e}", scen_path.display()))?;
    let (width, height, free) = (grid.width(), grid.height(), grid.free_cells());
    let mut planner = GridPlanner::octile(grid).map_err(|e| e.to_string())?;
    let summary = run_scenarios(&mut planner, &scenarios)
        .map_err(|e| format!("{}: {e}", scen_path.display()))?;

    println!(
        "map {}: {width} x {height}, {free} free cells",
        map_path.display()
    );
    println!("scenarios run: {}", summary.scenarios);
    println!(
        "matching the optimal length (within {LENGTH_TOLERANCE:e} relative): {}",
        summary.passed
    );
    match summary.worst_line {
        Some(line) => println!(
            "worst difference: {:.6} (scenario on line {line}); worst relative: {:.1e}",
            summary.worst_difference, summary.worst_relative
        ),
        None => println!("worst difference: none (no scenarios)"),
    }
    println!(
        "total search time: {:.3} ms",
        summary.search_time.as_secs_f64() * 1e3
    );
    println!("mean per query: {:.1} us", summary.mean_micros());
    println!(
        "node expansions: {} ({:.2} million per second)",
        summary.expanded,
        summary.expansions_per_second() / 1e6
    );
    println!("{} passed, {} failed", summary.passed, summary.failed);
    Ok(())
}
