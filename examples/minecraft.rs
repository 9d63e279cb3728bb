//! Routes over a real Minecraft Java Edition world (1.18 or later).
//!
//! ```text
//! cargo run --release --example minecraft -- WORLD [--route SX SY SZ GX GY GZ] [--pairs N] \
//!     [--seed S] [--max-distance D] [--max-nodes N] [--out FILE.png]
//! ```
//!
//! WORLD is a save folder (holding `region/`), a folder of region files (`*.mca`), or one
//! region file (of any name: its chunks say where they lie).
//! Positions are Minecraft world coordinates as the game's debug screen shows them: the block
//! the feet are in.
//!
//! - With `--route`, it prints exactly one JSON line,
//!   `{"status":...,"cost":...,"expanded":...,"path":[[x,y,z],...]}`.
//! - Otherwise it picks `--pairs` (default 20) start/goal pairs on the surface of the loaded
//!   chunks with the seeded generator (`--seed`, default 1; goals at most `--max-distance`
//!   blocks away horizontally, default 64), prints one JSON line per query with `start` and
//!   `goal` added, then `routed N pairs: F found, P partial, U unreachable; E expansions in T ms`.
//!   It draws at most 200 candidate pairs per pair asked and 2 million in all; when fewer
//!   pairs are found it says why on stderr (starts or goals without a surface, goals outside
//!   the loaded chunks or too near their edge), and with none it stops with that message.
//!   Pairs start and end on natural ground (never under water, never on leaves) where mobs
//!   walk: the game moves entities only in chunks with at least 2 rings of loaded chunks
//!   around them (load level 31 or below; the outer ring, level 33, and the one inside it,
//!   32, tick no entity), so both ends lie in such chunks, or in chunks with 1 ring when the
//!   world has none with 2, or anywhere loaded when it has none with 1. The rings used are
//!   printed on stderr. (The load levels: "1.14.x Chunk Loading",
//!   <https://gist.github.com/Drovolon/24bfaae00d57e7a8ca64b792e14fa7c6>.)
//!
//!   With `--pairs 40 --mob zombie`, each region file of the shipped 1.21.11 save loaded
//!   alone finds 35 to 40 pairs (r.-1.-1: 39, r.-1.0: 35, r.0.1: 40, r.1.1: 35, r.2.0: 36,
//!   r.2.1: 39; the other three hold no full chunk), and the whole save 93 of 100. Before
//!   the ring rule, pairs starting or ending by the unloaded edge left r.-1.-1 at 31.
//!
//! Searches are for the mob type `--mob` (default `zombie`: 2 blocks tall, walks and swims;
//! `iron_golem`, `chicken`, `villager`, `bat`... any of the game's entity names), through a
//! `Router`, with `MoveCosts::default()` and a node budget (`--max-nodes`, default 2000000);
//! the body and abilities routed for are printed on stderr. Load figures (chunks, time, memory) and where the picture
//! went are printed on stderr, so that stdout holds only the JSON lines and the summary. The
//! picture (`minecraft.png` by default) is the loaded area from above: shaded by the height of
//! the top surface, water blue, lava orange, hazards red, unloaded chunks black, each route
//! in one of six colours from a disc (its start) to a square (its goal), both labelled with
//! the route's number (the order of the JSON lines, from 1); one pixel per column, or several columns per
//! pixel when the loaded chunks lie farther apart than 4096 blocks (at most 16 Mi pixels). Exit code 0; bad input (a missing world, nothing
//! loadable, a start or goal that is no valid feet position) prints one line on stderr and
//! exits with code 2; `--help` lists the options and their ranges.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

use voxnav::anvil::load_world;
use voxnav::moves::profile::{MobMovement, mob_profile};
use voxnav::{IVec3, MoveCosts, Router, SearchOptions, SearchResult, SearchStatus};
#[path = "support/src/mod.rs"]
mod support;
use support::args::{Output, finish};
use support::minecraft::{Map, TICKING_RINGS, pick_pairs};

/// Routes over a real Minecraft Java Edition world (1.18 or later): one route given with
/// --route (one JSON line), or seeded pairs on the surface of the loaded chunks.
#[derive(Parser)]
#[command(
    name = "minecraft",
    allow_negative_numbers = true,
    after_help = "Positions are Minecraft world coordinates as the game's debug screen shows them: the \
     block the feet are in. Load figures and where the picture went are printed on stderr."
)]
struct Cli {
    /// A save folder (holding `region/`), a folder of region files (`*.mca`), or one region
    /// file.
    world: String,
    /// Route from (SX, SY, SZ) to (GX, GY, GZ) and print one JSON line, instead of pairs.
    #[arg(long, num_args = 6, value_names = ["SX", "SY", "SZ", "GX", "GY", "GZ"])]
    route: Option<Vec<i32>>,
    /// How many seeded start/goal pairs to route (1 to 100000).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pairs: u32,
    /// The seed that picks the pairs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest horizontal start/goal distance of a pair, in blocks (1 to 100000).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(i32).range(1..=100_000))]
    max_distance: i32,
    /// The node budget of each search (at least 1).
    #[arg(long, default_value_t = 2_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_nodes: u64,
    /// The mob type to route for (the game's entity name, such as zombie, villager,
    /// `iron_golem`, chicken, bat): its body, rounded up to whole blocks, and how it moves.
    #[arg(long, default_value = "zombie")]
    mob: String,
    /// Where to write the picture (PNG); checked before the world is loaded.
    #[arg(long, value_name = "FILE.png", default_value = "minecraft.png")]
    out: String,
}

struct Args {
    world: String,
    mob: String,
    route: Option<(IVec3, IVec3)>,
    pairs: usize,
    seed: u64,
    max_distance: i32,
    max_nodes: u64,
    out: String,
}

impl From<Cli> for Args {
    fn from(cli: Cli) -> Self {
        Self {
            world: cli.world,
            mob: cli.mob,
            // clap takes exactly 6 values for --route.
            route: cli.route.as_deref().and_then(|c| match *c {
                [sx, sy, sz, gx, gy, gz] => Some((IVec3::new(sx, sy, sz), IVec3::new(gx, gy, gz))),
                _ => None,
            }),
            pairs: cli.pairs as usize,
            seed: cli.seed,
            max_distance: cli.max_distance,
            max_nodes: cli.max_nodes,
            out: cli.out,
        }
    }
}

fn path_json(path: &[IVec3]) -> String {
    let mut out = String::from("[");
    for (i, p) in path.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "[{},{},{}]", p.x, p.y, p.z);
    }
    out.push(']');
    out
}

fn result_json(result: &SearchResult) -> String {
    let cost = result
        .cost
        .map_or_else(|| "null".to_owned(), |c| c.to_string());
    format!(
        "\"status\":\"{}\",\"cost\":{cost},\"expanded\":{},\"path\":{}",
        result.status,
        result.stats.expanded,
        path_json(&result.path)
    )
}

/// The colours of the routes in the picture, in turn.
const COLOURS: [[u8; 3]; 6] = [
    [230, 40, 230],
    [250, 140, 20],
    [40, 200, 250],
    [250, 230, 40],
    [240, 60, 60],
    [120, 250, 120],
];

fn run(args: &Args) -> Result<(), String> {
    // Fails at once for a path that cannot be written; the picture goes there at the end.
    let out = Output::create(&args.out)?;
    let loaded = load_world(&args.world).map_err(|e| e.to_string())?;
    let report = &loaded.report;
    if report.chunks_loaded == 0 {
        return Err(format!(
            "{}: no chunk with status full (finished terrain) could be loaded ({report})",
            args.world
        ));
    }
    let profile = mob_profile(&args.mob).map_err(|e| e.to_string())?;
    let agent = profile.agent().map_err(|e| e.to_string())?;
    if args.route.is_none() && profile.movement == MobMovement::SwimOnly {
        return Err(format!(
            "{} swims only: the pairs are picked on dry ground, so give --route with two \
             positions in water",
            profile.name
        ));
    }
    // Bad positions are reported before anything else is printed: one line on stderr.
    if let Some((start, goal)) = args.route {
        for (role, p) in [("start", start), ("goal", goal)] {
            agent.check_position(&loaded.world, p).map_err(|reason| {
                format!(
                    "{role} {},{},{} is not a valid feet position: {reason}",
                    p.x, p.y, p.z
                )
            })?;
        }
    }
    eprintln!("{report}");
    eprintln!(
        "routing for {}: body {} x {} blocks (hitbox {} x {}), \
         moves: {:?}, water: {}, opens doors: {}",
        profile.name,
        profile.width,
        profile.height,
        profile.hitbox_width,
        profile.hitbox_height,
        profile.movement,
        agent.water,
        if agent.opens_doors { "yes" } else { "no" },
    );
    let router = Router::new(agent, MoveCosts::default())
        .map_err(|e| e.to_string())?
        .with_options(SearchOptions::default().with_max_nodes(args.max_nodes));
    let mut picture = Map::new(&loaded);
    let mut routes = Vec::new();
    if let Some((start, goal)) = args.route {
        let result = router
            .route(&loaded.world, start, goal)
            .map_err(|e| e.to_string())?;
        println!("{{{}}}", result_json(&result));
        routes.push((start, goal, result));
    } else {
        let picked = pick_pairs(&loaded, &agent, args.pairs, args.seed, args.max_distance);
        let shortfall = picked.shortfall(args.pairs, &loaded, args.max_distance);
        if picked.pairs.is_empty() {
            return Err(format!(
                "{}: no surface positions to route between ({})",
                args.world,
                shortfall.unwrap_or_default()
            ));
        }
        if let Some(shortfall) = shortfall {
            eprintln!("{shortfall}");
        }
        eprintln!(
            "pairs picked in chunks with {} of {TICKING_RINGS} rings of loaded chunks around \
             them (mobs walk only where there are {TICKING_RINGS})",
            picked.rings
        );
        let pairs = picked.pairs;
        let started = Instant::now();
        let (mut found, mut partial, mut unreachable, mut expanded) = (0, 0, 0, 0u64);
        for &(start, goal) in &pairs {
            let result = router
                .route(&loaded.world, start, goal)
                .map_err(|e| e.to_string())?;
            match result.status {
                SearchStatus::Found => found += 1,
                SearchStatus::Partial => partial += 1,
                SearchStatus::Unreachable => unreachable += 1,
            }
            expanded += result.stats.expanded;
            println!(
                "{{\"start\":[{},{},{}],\"goal\":[{},{},{}],{}}}",
                start.x,
                start.y,
                start.z,
                goal.x,
                goal.y,
                goal.z,
                result_json(&result)
            );
            routes.push((start, goal, result));
        }
        let elapsed = started.elapsed();
        println!(
            "routed {} pairs: {found} found, {partial} partial, {unreachable} unreachable; \
             {expanded} expansions in {:.0} ms",
            pairs.len(),
            elapsed.as_secs_f64() * 1e3
        );
        eprintln!(
            "{:.0} expansions per second",
            expanded as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    for (index, (_, _, result)) in routes.iter().enumerate() {
        for &p in &result.path {
            picture.put(p, COLOURS[index % COLOURS.len()]);
        }
    }
    for (index, (start, goal, _)) in routes.iter().enumerate() {
        let colour = COLOURS[index % COLOURS.len()];
        picture.mark(*start, index + 1, true, colour);
        picture.mark(*goal, index + 1, false, colour);
    }
    let (width, height) = (picture.image.width(), picture.image.height());
    picture.image.write_png(out)?;
    let scale = picture.scale;
    eprintln!(
        "wrote {} ({width} x {height} pixels, {scale} x {scale} columns per pixel, x {}.., z {}..)",
        args.out, picture.min_x, picture.min_z
    );
    Ok(())
}

fn main() -> ExitCode {
    finish("minecraft", run(&Cli::parse().into()))
}
