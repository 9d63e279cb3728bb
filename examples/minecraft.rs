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
//! exits with code 2.

use std::fmt::Write as _;
use std::fs::File;
use std::io::BufWriter;
use std::process::ExitCode;
use std::time::Instant;

use voxnav::anvil::{LoadedWorld, MAX_Y, MIN_Y, load_world};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, Pathfinder, SearchOptions, SearchResult,
    SearchStatus, VoxelWorld, check_feet, is_valid_feet,
};

const USAGE: &str = "usage: minecraft WORLD [--route SX SY SZ GX GY GZ] [--pairs N] [--seed S] \
                     [--max-distance D] [--max-nodes N] [--out FILE.png]";

struct Args {
    world: String,
    route: Option<(IVec3, IVec3)>,
    pairs: usize,
    seed: u64,
    max_distance: i32,
    max_nodes: u64,
    out: String,
}

fn parse_number<T: std::str::FromStr>(what: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{what} must be a whole number, found `{text}`"))
}

fn parse_args(raw: &[String]) -> Result<Args, String> {
    let mut args = Args {
        world: String::new(),
        route: None,
        pairs: 20,
        seed: 1,
        max_distance: 64,
        max_nodes: 2_000_000,
        out: "minecraft.png".to_owned(),
    };
    let mut world = None;
    let mut i = 0;
    while i < raw.len() {
        let arg = raw[i].as_str();
        let mut value = |name: &str| -> Result<&String, String> {
            i += 1;
            raw.get(i).ok_or_else(|| format!("{name} needs a value"))
        };
        match arg {
            "--route" => {
                let mut coords = [0i32; 6];
                for (coord, name) in coords.iter_mut().zip(["SX", "SY", "SZ", "GX", "GY", "GZ"]) {
                    *coord = parse_number(name, value("--route (6 coordinates)")?)?;
                }
                args.route = Some((
                    IVec3::new(coords[0], coords[1], coords[2]),
                    IVec3::new(coords[3], coords[4], coords[5]),
                ));
            }
            "--pairs" => {
                args.pairs = parse_number("--pairs", value(arg)?)?;
                if args.pairs == 0 || args.pairs > 100_000 {
                    return Err("--pairs must be from 1 to 100000".to_owned());
                }
            }
            "--seed" => args.seed = parse_number("--seed", value(arg)?)?,
            "--max-distance" => {
                args.max_distance = parse_number("--max-distance", value(arg)?)?;
                if args.max_distance < 1 {
                    return Err("--max-distance must be at least 1".to_owned());
                }
            }
            "--max-nodes" => {
                args.max_nodes = parse_number("--max-nodes", value(arg)?)?;
                if args.max_nodes == 0 {
                    return Err("--max-nodes must be at least 1".to_owned());
                }
            }
            "--out" => args.out.clone_from(value(arg)?),
            "-h" | "--help" => return Err(USAGE.to_owned()),
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option `{flag}`; {USAGE}"));
            }
            path => {
                if world.replace(path.to_owned()).is_some() {
                    return Err(format!(
                        "expected one WORLD, found another: `{path}`; {USAGE}"
                    ));
                }
            }
        }
        i += 1;
    }
    args.world = world.ok_or_else(|| format!("no WORLD given; {USAGE}"))?;
    Ok(args)
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
struct Picture {
    min_x: i32,
    min_z: i32,
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl Picture {
    fn new(loaded: &LoadedWorld) -> Picture {
        let xs = loaded.loaded_chunks.iter().map(|c| c.0);
        let zs = loaded.loaded_chunks.iter().map(|c| c.1);
        let (min_cx, max_cx) = (xs.clone().min().unwrap_or(0), xs.max().unwrap_or(0));
        let (min_cz, max_cz) = (zs.clone().min().unwrap_or(0), zs.max().unwrap_or(0));
        let (min_x, min_z) = (min_cx * 16, min_cz * 16);
        let width = ((max_cx - min_cx + 1) * 16) as u32;
        let height = ((max_cz - min_cz + 1) * 16) as u32;
        let mut pixels = vec![0u8; (width * height * 3) as usize];
        let world = &loaded.world;
        for &(cx, cz) in &loaded.loaded_chunks {
            for dz in 0..16 {
                for dx in 0..16 {
                    let (x, z) = (cx * 16 + dx, cz * 16 + dz);
                    let colour = column_colour(world, x, z);
                    let i = (((z - min_z) as u32 * width + (x - min_x) as u32) * 3) as usize;
                    pixels[i..i + 3].copy_from_slice(&colour);
                }
            }
        }
        Picture {
            min_x,
            min_z,
            width,
            height,
            pixels,
        }
    }

    fn put(&mut self, p: IVec3, colour: [u8; 3]) {
        let (x, z) = (p.x - self.min_x, p.z - self.min_z);
        if x >= 0 && z >= 0 && (x as u32) < self.width && (z as u32) < self.height {
            let i = ((z as u32 * self.width + x as u32) * 3) as usize;
            self.pixels[i..i + 3].copy_from_slice(&colour);
        }
    }

    fn write(&self, path: &str) -> Result<(), String> {
        let failed = |e: &dyn std::fmt::Display| format!("cannot write {path}: {e}");
        let file = File::create(path).map_err(|e| failed(&e))?;
        let mut encoder = png::Encoder::new(BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| failed(&e))?;
        writer
            .write_image_data(&self.pixels)
            .map_err(|e| failed(&e))?;
        writer.finish().map_err(|e| failed(&e))
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

fn run(raw: &[String]) -> Result<(), String> {
    let args = parse_args(raw)?;
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
    let mut picture = Picture::new(&loaded);
    let mut routes = Vec::new();
    if let Some((start, goal)) = args.route {
        let result = pathfinder
            .find_path(&loaded.world, start, goal, &options)
            .map_err(|e| e.to_string())?;
        println!("{{{}}}", result_json(&result));
        routes.push((start, goal, result));
    } else {
        let pairs = pick_pairs(&loaded, &agent, &args);
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
    picture.write(&args.out)?;
    eprintln!(
        "wrote {} ({} x {} pixels, one per column, x {}.., z {}..)",
        args.out, picture.width, picture.height, picture.min_x, picture.min_z
    );
    Ok(())
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    match run(&raw) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("minecraft: {message}");
            ExitCode::from(2)
        }
    }
}
