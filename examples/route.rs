//! Routes an agent through a layered text world and prints one JSON line.
//!
//! ```text
//! cargo run --release --example route -- WORLD.txt SX SY SZ GX GY GZ \
//!     [--max-step-up N] [--max-drop N] [--no-diagonal] [--max-nodes N]
//! ```
//!
//! Output: `{"status":"found"|"partial"|"unreachable","cost":<integer or null>,"expanded":<integer>,"path":[[x,y,z],...]}`
//! and exit code 0. For a partial route, `cost` is the cost of the partial path printed.
//! Bad input prints one line on stderr and exits with code 2.

use std::fmt::Write as _;
use std::process::ExitCode;

use voxnav::{Agent, IVec3, MoveCosts, Pathfinder, SearchOptions, SearchResult, load_text_world};

const USAGE: &str = "usage: route WORLD.txt SX SY SZ GX GY GZ [--max-step-up N] [--max-drop N] [--no-diagonal] [--max-nodes N]";

struct Args {
    world: String,
    start: IVec3,
    goal: IVec3,
    agent: Agent,
    max_nodes: Option<u64>,
}

fn parse_number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a whole number, found `{text}`"))
}

fn parse_args(raw: &[String]) -> Result<Args, String> {
    let mut positional = Vec::new();
    let mut agent = Agent::default();
    let mut max_nodes = None;
    let mut i = 0;
    while i < raw.len() {
        let arg = raw[i].as_str();
        let mut value = |name: &str| -> Result<&String, String> {
            i += 1;
            raw.get(i).ok_or_else(|| format!("{name} needs a value"))
        };
        match arg {
            "--max-step-up" => agent.max_step_up = parse_number("--max-step-up", value(arg)?)?,
            "--max-drop" => agent.max_drop = parse_number("--max-drop", value(arg)?)?,
            "--max-nodes" => max_nodes = Some(parse_number("--max-nodes", value(arg)?)?),
            "--no-diagonal" => agent.diagonals = false,
            "-h" | "--help" => return Err(USAGE.to_string()),
            flag if flag.starts_with("--") => return Err(format!("unknown option `{flag}`")),
            _ => positional.push(arg.to_string()),
        }
        i += 1;
    }
    if positional.len() != 7 {
        return Err(format!(
            "expected a world file and 6 coordinates, found {} arguments",
            positional.len()
        ));
    }
    let names = ["SX", "SY", "SZ", "GX", "GY", "GZ"];
    let mut coords = [0i32; 6];
    for ((coord, name), text) in coords.iter_mut().zip(names).zip(&positional[1..]) {
        *coord = parse_number(name, text)?;
    }
    Ok(Args {
        world: positional[0].clone(),
        start: IVec3::new(coords[0], coords[1], coords[2]),
        goal: IVec3::new(coords[3], coords[4], coords[5]),
        agent,
        max_nodes,
    })
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

fn run(raw: &[String]) -> Result<String, String> {
    let args = parse_args(raw)?;
    let world = load_text_world(&args.world).map_err(|e| e.to_string())?;
    let mut pathfinder =
        Pathfinder::new(args.agent, MoveCosts::default()).map_err(|e| e.to_string())?;
    let mut options = SearchOptions::default();
    if let Some(max_nodes) = args.max_nodes {
        options = options.with_max_nodes(max_nodes);
    }
    let result = pathfinder
        .find_path(&world, args.start, args.goal, &options)
        .map_err(|e| e.to_string())?;
    Ok(to_json(&result))
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match run(&raw) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("route: {message}");
            ExitCode::from(2)
        }
    }
}
