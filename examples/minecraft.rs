//! Routes over a real Minecraft Java Edition world (1.18 or later).
//!
//! ```text
//! cargo run --release --example minecraft -- WORLD [--route SX SY SZ GX GY GZ] [--pairs N] \
//!     [--seed S] [--max-distance D] [--max-nodes N] [--out FILE.png]
//! ```
//!
//! WORLD is a save folder (holding `region/`), a folder of region files, or one `r.X.Z.mca`.
//! Positions are Minecraft world coordinates as the game's debug screen shows them: the block
//! the feet are in.
//!
//! - With `--route`, it prints exactly one JSON line,
//!   `{"status":...,"cost":...,"expanded":...,"path":[[x,y,z],...]}`.
//! - Otherwise it picks `--pairs` (default 20) start/goal pairs on the surface of the loaded
//!   chunks with the seeded generator (`--seed`, default 1; goals at most `--max-distance`
//!   blocks away horizontally, default 64), prints one JSON line per query with `start` and
//!   `goal` added, then `routed N pairs: F found, P partial, U unreachable; E expansions in T ms`.
//!
//! Searches use `Agent::default()` and `MoveCosts::default()` with a node budget
//! (`--max-nodes`, default 2000000). Load figures (chunks, time, memory) and where the picture
//! went are printed on stderr, so that stdout holds only the JSON lines and the summary. The
//! picture (`minecraft.png` by default) is the loaded area from above: shaded by the height of
//! the top surface, water blue, lava orange, hazards red, unloaded chunks black, routes
//! magenta with white starts and black goals. Exit code 0; bad input (a missing world, nothing
//! loadable, a start or goal that is no valid feet position) prints one line on stderr and
//! exits with code 2; `--help` lists the options and their ranges.

use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;

use voxnav::anvil::{LoadedWorld, MAX_Y, MIN_Y, load_world};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, Pathfinder, SearchOptions, SearchResult,
    SearchStatus, VoxelWorld, check_feet, is_valid_feet,
};
use voxnav_support::args::{Output, finish};
use voxnav_support::picture::{BLACK, Picture};

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
    /// A save folder (holding `region/`), a folder of region files, or one `r.X.Z.mca`.
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
    /// Where to write the picture (PNG); checked before the world is loaded.
    #[arg(long, value_name = "FILE.png", default_value = "minecraft.png")]
    out: String,
}

struct Args {
    world: String,
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

/// `SplitMix64`: a small seeded generator, so the same seed picks the same pairs everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The highest valid feet position of column `x`, `z` whose body is in the open air above
/// it (the surface), if any.
fn surface_feet(world: &ChunkedWorld, agent: &Agent, x: i32, z: i32) -> Option<IVec3> {
    let mut y = MAX_Y - 1;
    while y > MIN_Y {
        let feet = IVec3::new(x, y, z);
        if !world.is_passable(feet) {
            return is_valid_feet(world, feet + IVec3::Y, agent.height).then_some(feet + IVec3::Y);
        }
        y -= 1;
    }
    None
}

/// Start/goal pairs on the surface of the loaded chunks: a start in a random loaded column,
/// a goal at most `max_distance` blocks away in x and z, both valid feet positions.
fn pick_pairs(loaded: &LoadedWorld, agent: &Agent, args: &Args) -> Vec<(IVec3, IVec3)> {
    let mut rng = SplitMix(args.seed);
    let chunks = &loaded.loaded_chunks;
    let mut pairs = Vec::with_capacity(args.pairs);
    let mut tries = 0;
    while pairs.len() < args.pairs && tries < args.pairs * 200 {
        tries += 1;
        let (cx, cz) = chunks[rng.below(chunks.len() as u64) as usize];
        let x = cx * 16 + rng.below(16) as i32;
        let z = cz * 16 + rng.below(16) as i32;
        let Some(start) = surface_feet(&loaded.world, agent, x, z) else {
            continue;
        };
        let span = u64::from(args.max_distance.unsigned_abs()) * 2 + 1;
        let gx = x + rng.below(span) as i32 - args.max_distance;
        let gz = z + rng.below(span) as i32 - args.max_distance;
        let Some(goal) = surface_feet(&loaded.world, agent, gx, gz) else {
            continue;
        };
        if goal != start {
            pairs.push((start, goal));
        }
    }
    pairs
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

/// The top-down picture of the loaded area, RGB, one pixel per column.
struct Map {
    min_x: i32,
    min_z: i32,
    image: Picture,
}

impl Map {
    fn new(loaded: &LoadedWorld) -> Map {
        let xs = loaded.loaded_chunks.iter().map(|c| c.0);
        let zs = loaded.loaded_chunks.iter().map(|c| c.1);
        let (min_cx, max_cx) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (min_cz, max_cz) = (zs.clone().min().unwrap_or(0), zs.max().unwrap_or(0));
        let (min_x, min_z) = (min_cx * 16, min_cz * 16);
        let width = ((max_cx - min_cx + 1) * 16) as u32;
        let height = ((max_cz - min_cz + 1) * 16) as u32;
        let mut image = Picture::new(width, height, BLACK);
        let world = &loaded.world;
        for &(cx, cz) in &loaded.loaded_chunks {
            for dz in 0..16 {
                for dx in 0..16 {
                    let (x, z) = (cx * 16 + dx, cz * 16 + dz);
                    let colour = column_colour(world, x, z);
                    image.set(i64::from(x - min_x), i64::from(z - min_z), colour);
                }
            }
        }
        Map {
            min_x,
            min_z,
            image,
        }
    }

    fn put(&mut self, p: IVec3, colour: [u8; 3]) {
        let (x, z) = (p.x - self.min_x, p.z - self.min_z);
        self.image.set(i64::from(x), i64::from(z), colour);
    }
}

/// The colour of a column seen from above: its top floor (the highest cell that is not
/// passable, or is standable), shaded by height, or the water or lava over it.
fn column_colour(world: &ChunkedWorld, x: i32, z: i32) -> [u8; 3] {
    let mut y0 = MAX_Y - 64;
    loop {
        // Whole runs of 64 cells at once: air, water, doors and cobwebs are passable and not
        // standable; the floor is the highest cell that is anything else.
        let bits = world.column(x, z, y0, 64);
        let open = bits.passable & !bits.standable;
        if open != u64::MAX {
            let top = 63 - (!open).leading_zeros() as i32;
            let floor = IVec3::new(x, y0 + top, z);
            let shade = (f64::from(floor.y - 63) * 2.0 + 128.0).clamp(30.0, 250.0) as u8;
            let above = world.get(floor + IVec3::Y).unwrap_or(Block::Air);
            return match (world.get(floor).unwrap_or(Block::Barrier), above) {
                (_, Block::Water) => [30, 70, (shade / 2).saturating_add(120)],
                (Block::Lava, _) => [240, 110, 20],
                (Block::Hazard, _) => [200, 40, 40],
                (Block::Barrier, _) => [0, 0, 0],
                _ => [shade / 2 + 30, shade, shade / 2 + 30],
            };
        }
        if y0 <= MIN_Y {
            return [0, 0, 0];
        }
        y0 = (y0 - 64).max(MIN_Y);
    }
}

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
    let agent = Agent::default();
    // Bad positions are reported before anything else is printed: one line on stderr.
    if let Some((start, goal)) = args.route {
        for (role, p) in [("start", start), ("goal", goal)] {
            check_feet(&loaded.world, p, agent.height).map_err(|reason| {
                format!(
                    "{role} {},{},{} is not a valid feet position: {reason}",
                    p.x, p.y, p.z
                )
            })?;
        }
    }
    eprintln!("{report}");
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default()).map_err(|e| e.to_string())?;
    let options = SearchOptions::default().with_max_nodes(args.max_nodes);
    let mut picture = Map::new(&loaded);
    let mut routes = Vec::new();
    if let Some((start, goal)) = args.route {
        let result = pathfinder
            .find_path(&loaded.world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        println!("{{{}}}", result_json(&result));
        routes.push((start, goal, result));
    } else {
        let pairs = pick_pairs(&loaded, &agent, args);
        if pairs.is_empty() {
            return Err(format!(
                "{}: found no surface positions to route between",
                args.world
            ));
        }
        let started = Instant::now();
        let (mut found, mut partial, mut unreachable, mut expanded) = (0, 0, 0, 0u64);
        for &(start, goal) in &pairs {
            let result = pathfinder
                .find_path(&loaded.world, start, goal, &options)
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
    for (start, goal, result) in &routes {
        for &p in &result.path {
            picture.put(p, [230, 40, 230]);
        }
        picture.put(*start, [255, 255, 255]);
        picture.put(*goal, [0, 0, 0]);
    }
    let (width, height) = (picture.image.width(), picture.image.height());
    picture.image.write_png(out)?;
    eprintln!(
        "wrote {} ({width} x {height} pixels, one per column, x {}.., z {}..)",
        args.out, picture.min_x, picture.min_z
    );
    Ok(())
}

fn main() -> ExitCode {
    finish("minecraft", run(&Cli::parse().into()))
}
