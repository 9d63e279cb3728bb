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

use std::process::ExitCode;

use voxnav::IVec2;
use voxnav::{GridPlanner, format_actions, parse_robot_grid};

const USAGE: &str =
    "usage: robotplanner [--diagonal] <env.txt> <start x> <start y> <goal x> <goal y>";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("robotplanner: {message}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode, String> {
    let mut diagonals = false;
    let mut positional = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--diagonal" => diagonals = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            _ if arg.starts_with("--") => {
                return Err(format!("unknown option `{arg}`; {USAGE}"));
            }
            _ => positional.push(arg),
        }
    }
    let [path, start_x, start_y, goal_x, goal_y] = &positional[..] else {
        return Err(format!(
            "expected a file and 4 coordinates, got {} arguments; {USAGE}",
            positional.len()
        ));
    };
    let coordinate = |name: &str, text: &str| -> Result<i32, String> {
        text.parse()
            .map_err(|_| format!("{name} must be a whole number, got `{text}`; {USAGE}"))
    };
    let start = IVec2::new(
        coordinate("start x", start_x)?,
        coordinate("start y", start_y)?,
    );
    let goal = IVec2::new(coordinate("goal x", goal_x)?, coordinate("goal y", goal_y)?);

    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let grid =
        parse_robot_grid(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("{path}: {e}"))?;
    let mut planner = GridPlanner::robot(grid, diagonals).map_err(|e| e.to_string())?;
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
