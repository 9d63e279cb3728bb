//! Routes an agent through a layered text world and prints one JSON line.
//!
//! ```text
//! cargo run --release --example route -- WORLD.txt SX SY SZ GX GY GZ \
//!     [--height N] [--max-step-up N] [--max-drop N] [--no-diagonal] [--max-nodes N]
//! ```
//!
//! Output: `{"status":"found"|"partial"|"unreachable","cost":<integer or null>,"expanded":<integer>,"path":[[x,y,z],...]}`
//! and exit code 0. For a partial route, `cost` is the cost of the partial path printed.
//! Bad input prints one line on stderr and exits with code 2; `--help` lists the options.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use voxnav::engine::Pathfinder;
use voxnav::moves::agent::MAX_AGENT_SPAN;
use voxnav::world::parse_text_world;
use voxnav::{Agent, IVec3, MoveCosts, SearchOptions, SearchResult};
#[path = "support/src/mod.rs"]
mod support;
use support::args::{MAX_INPUT_BYTES, describe_bytes, finish, read_text};

/// Routes an agent through a layered text world (`voxnav-world 1`; see the `text` format in
/// voxnav's docs) and prints the route as one JSON line.
#[derive(Parser)]
#[command(name = "route", allow_negative_numbers = true, after_help = format!(
    "World files larger than {} are refused. Coordinates are feet positions: \
     the cell the agent's feet occupy, with a solid block below.",
    describe_bytes(MAX_INPUT_BYTES)
))]
struct Args {
    /// The world file.
    world: PathBuf,
    /// Start x.
    sx: i32,
    /// Start y (the feet's height).
    sy: i32,
    /// Start z.
    sz: i32,
    /// Goal x.
    gx: i32,
    /// Goal y (the feet's height).
    gy: i32,
    /// Goal z.
    gz: i32,
    /// The agent's height in cells, from the feet up (1 to 64).
    #[arg(long, default_value_t = Agent::default().height,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_AGENT_SPAN)))]
    height: u32,
    /// The highest step up in one move, in blocks (0 to 64).
    #[arg(long, default_value_t = Agent::default().max_step_up,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_AGENT_SPAN)))]
    max_step_up: u32,
    /// The deepest drop in one move, in blocks (0 to 64).
    #[arg(long, default_value_t = Agent::default().max_drop,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_AGENT_SPAN)))]
    max_drop: u32,
    /// Moves along the 4 axes only (no diagonal steps).
    #[arg(long)]
    no_diagonal: bool,
    /// The search's node budget (at least 1); when it runs out the route is partial.
    /// Without it the search is bounded by the world's size.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: Option<u64>,
}

fn to_json(result: &SearchResult) -> String {
    let cost = result
        .cost
        .map_or_else(|| "null".to_string(), |c| c.to_string());
    let mut path = String::from("[");
    for (i, p) in result.path.iter().enumerate() {
        if i > 0 {
            path.push(',');
        }
        let _ = write!(path, "[{},{},{}]", p.x, p.y, p.z);
    }
    path.push(']');
    format!(
        "{{\"status\":\"{}\",\"cost\":{cost},\"expanded\":{},\"path\":{path}}}",
        result.status, result.stats.expanded
    )
}

fn run(args: &Args) -> Result<(), String> {
    let text = read_text(&args.world, MAX_INPUT_BYTES)?;
    let world = parse_text_world(&text).map_err(|e| format!("{}: {e}", args.world.display()))?;
    let agent = Agent {
        height: args.height,
        max_step_up: args.max_step_up,
        max_drop: args.max_drop,
        diagonals: !args.no_diagonal,
        ..Agent::default()
    };
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).map_err(|e| e.to_string())?;
    let mut options = SearchOptions::default();
    if let Some(max_nodes) = args.max_nodes {
        options = options.with_max_nodes(max_nodes);
    }
    let start = IVec3::new(args.sx, args.sy, args.sz);
    let goal = IVec3::new(args.gx, args.gy, args.gz);
    let result = pathfinder
        .find_path(&world, start, goal, &options)
        .map_err(|e| e.to_string())?;
    println!("{}", to_json(&result));
    Ok(())
}

fn main() -> ExitCode {
    finish("route", run(&Args::parse()))
}
