//! The robot grid assignment: plan on a 0/1 grid file and print the actions.
//!
//! ```sh
//! cargo run --release --example robotplanner -- env.txt 0 2 4 1
//! cargo run --release --example robotplanner -- --diagonal env.txt 0 2 4 1
//! ```
//!
//! `env.txt` holds `width height` on its first line, then `height` lines of `width` space-
//! or tab-separated `0` (free) / `1` (blocked). The four numbers are the start `x y` and the
//! goal `x y`, `[0, 0]` being the top-left cell. The output is the optimal action list
//! (`U` = y - 1, `D` = y + 1, `L` = x - 1, `R` = x + 1; with `--diagonal` also `UL UR DL DR`,
//! never cutting a blocked corner), separated by spaces: an empty line when start equals
//! goal. Exit status: 0 with a route, 1 when there is none, 2 on bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use voxnav::flat::IVec2;
use voxnav::flat::{GridPlanner, format_actions};
use voxnav::world::parse_robot_grid;
#[path = "support/src/mod.rs"]
mod support;
use support::args::{MAX_INPUT_BYTES, describe_bytes, read_text};

/// Plans on a robot grid file and prints the optimal actions (U D L R, with --diagonal also
/// UL UR DL DR), separated by spaces.
#[derive(Parser)]
#[command(name = "robotplanner", allow_negative_numbers = true, after_help = format!(
    "The grid file: `width height`, then `height` lines of `width` space- or tab-separated \
     0 (free) / 1 (blocked); [0, 0] is the top-left cell; files larger than {} \
     are refused. Exit status: 0 with a route, 1 when there is none, 2 on bad input.",
    describe_bytes(MAX_INPUT_BYTES)
))]
struct Args {
    /// Also move diagonally (never cutting a blocked corner).
    #[arg(long)]
    diagonal: bool,
    /// The grid file.
    grid: PathBuf,
    /// Start x (column, from 0 at the left).
    start_x: i32,
    /// Start y (row, from 0 at the top).
    start_y: i32,
    /// Goal x.
    goal_x: i32,
    /// Goal y.
    goal_y: i32,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("robotplanner: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Args) -> Result<ExitCode, String> {
    let start = IVec2::new(args.start_x, args.start_y);
    let goal = IVec2::new(args.goal_x, args.goal_y);
    let text = read_text(&args.grid, MAX_INPUT_BYTES)?;
    let grid = parse_robot_grid(&text).map_err(|e| format!("{}: {e}", args.grid.display()))?;
    let mut planner = GridPlanner::robot(grid, args.diagonal).map_err(|e| e.to_string())?;
    let route = planner.plan(start, goal).map_err(|e| e.to_string())?;
    if !route.is_found() {
        eprintln!(
            "robotplanner: no path from [x={}, y={}] to [x={}, y={}]: the goal cannot be reached",
            start.x, start.y, goal.x, goal.y
        );
        return Ok(ExitCode::from(1));
    }
    println!("{}", format_actions(&route.actions));
    Ok(ExitCode::SUCCESS)
}
