//! An NPC walks a long route across the default procedural terrain while a player digs a
//! trench across it and then pours lava on it. Each time, the NPC checks the rest of its
//! route, replans from where it stands, and the example prints where, why, how long the
//! incremental replan took against a fresh A*, and the cost before and after; at the end it
//! writes a top-down picture (PNG) of the old and new routes.
//!
//! The fresh search's times in `--bench` are the best of three runs; each repair runs once
//! (it changes its state), so a busy machine's noise counts against the repairs.
//!
//! ```text
//! cargo run --release --example replan -- [--seed N] [--picture PATH] [--bench QUERIES]
//! ```
//!
//! `--bench QUERIES` instead measures replanning: on QUERIES routes of 200+ blocks, with the
//! NPC part-way along and 1 to 10 blocks changed near the route ahead, it times a fresh A*
//! over the compiled walk graph (brought up to date with the changes, untimed), a fresh A* on
//! the fly, D* Lite's repair (its graph update included) and the [`Replanner`]'s choice,
//! checks that all costs are equal on every query, and prints a table. Bad input prints one line on stderr and exits with code 2.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use voxnav::graph::{GraphSearch, NavGraph};
use voxnav::terrain::{SplitMix64, Terrain, generate_terrain_with_heights};
use voxnav::{
    Agent, Block, ChunkedWorld, DStarLite, IVec3, MoveCosts, Pathfinder, ReplanMethod, Replanner,
    SearchOptions, TerrainConfig, VoxelWorld, check_path, is_valid_feet, surface_feet,
};

const USAGE: &str = "usage: replan [--seed N] [--picture PATH] [--bench QUERIES]";

struct Args {
    seed: u64,
    picture: String,
    bench: Option<usize>,
}

fn parse_args(raw: &[String]) -> Result<Args, String> {
    let mut args = Args {
        seed: 7,
        picture: "replan.png".into(),
        bench: None,
    };
    let mut i = 0;
    while i < raw.len() {
        let flag = raw[i].as_str();
        let value = raw.get(i + 1).ok_or_else(|| match flag {
            "-h" | "--help" => USAGE.to_string(),
            _ => format!("{flag} needs a value ({USAGE})"),
        });
        match flag {
            "--seed" => {
                let v = value?;
                args.seed = v
                    .parse()
                    .map_err(|_| format!("--seed must be a whole number, found `{v}`"))?;
            }
            "--picture" => args.picture.clone_from(value?),
            "--bench" => {
                let v = value?;
                args.bench = Some(
                    v.parse()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--bench must be a positive count, found `{v}`"))?,
                );
            }
            "-h" | "--help" => return Err(USAGE.to_string()),
            other => return Err(format!("unknown argument `{other}` ({USAGE})")),
        }
        i += 2;
    }
    Ok(args)
}

fn main() -> ExitCode {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    let result = parse_args(&raw).and_then(|args| match args.bench {
        Some(queries) => bench(args.seed, queries),
        None => demo(&args),
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("replan: {message}");
            ExitCode::from(2)
        }
    }
}

/// The crate's default procedural terrain (512 x 128 x 512) for `seed`.
fn make_terrain(seed: u64) -> Result<Terrain, String> {
    generate_terrain_with_heights(&TerrainConfig::default().with_seed(seed))
        .map_err(|e| e.to_string())
}

/// The size of the (bounded) world.
fn size(world: &ChunkedWorld) -> IVec3 {
    world.world_bounds().map_or(IVec3::ONE, |b| b.size())
}

/// The highest valid feet position of column `(x, z)`.
fn surface(world: &ChunkedWorld, x: i32, z: i32) -> Option<IVec3> {
    surface_feet(world, &Agent::default(), x, z)
}

/// A start and goal whose optimal route is at least `min_len` positions long.
fn pick_route(
    world: &ChunkedWorld,
    astar: &mut Pathfinder,
    rng: &mut SplitMix64,
    min_len: usize,
) -> Result<(IVec3, IVec3, voxnav::SearchResult), String> {
    let size = size(world);
    for _ in 0..200 {
        let margin = 20;
        let start = (
            margin + rng.below(u64::from((size.x - 2 * margin) as u32)) as i32,
            margin + rng.below(u64::from((size.z - 2 * margin) as u32)) as i32,
        );
        let angle = rng.below(3600) as f32 / 3600.0 * std::f32::consts::TAU;
        let distance = 200.0 + rng.below(40) as f32;
        let goal = (
            start.0 + (angle.cos() * distance) as i32,
            start.1 + (angle.sin() * distance) as i32,
        );
        if !(0..size.x).contains(&goal.0) || !(0..size.z).contains(&goal.1) {
            continue;
        }
        let (Some(s), Some(g)) = (
            surface(world, start.0, start.1),
            surface(world, goal.0, goal.1),
        ) else {
            continue;
        };
        let route = astar
            .find_path(world, s, g, &SearchOptions::default())
            .map_err(|e| e.to_string())?;
        if route.is_found() && route.path.len() >= min_len {
            return Ok((s, g, route));
        }
    }
    Err("found no long enough route in 200 tries; try another --seed".into())
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Changes 1 to 10 cells near the route ahead of `position_index`; returns false (and
/// changes nothing) when the change would leave the NPC or the goal without footing.
/// Bounded worlds only (the generated worlds are).
fn disturb(
    world: &mut ChunkedWorld,
    rng: &mut SplitMix64,
    path: &[IVec3],
    position_index: usize,
) -> bool {
    let goal = *path.last().unwrap_or(&IVec3::ZERO);
    let ahead = (path.len() - position_index).saturating_sub(4).max(1);
    let at = position_index + 2 + rng.below(ahead.min(80) as u64) as usize;
    let center = path[at.min(path.len() - 1)];
    // 1 to 10 cells of the 3x4x3 box around a route position (from the floor to above the
    // head) each get a block different from theirs.
    let count = 1 + rng.below(10) as usize;
    let mut changed: Vec<IVec3> = Vec::with_capacity(count);
    for _ in 0..1000 {
        if changed.len() == count {
            break;
        }
        let cell = center
            + IVec3::new(
                rng.below(3) as i32 - 1,
                rng.below(4) as i32 - 1,
                rng.below(3) as i32 - 1,
            );
        if changed.contains(&cell) {
            continue;
        }
        let Some(old) = world.get(cell) else {
            continue;
        };
        // Three times in four the player digs out a block or places one; otherwise lava.
        let block = match (rng.below(4), old) {
            (3, Block::Lava) | (0..=2, Block::Solid | Block::Lava) => Block::Air,
            (3, _) => Block::Lava,
            _ => Block::Solid,
        };
        if world.set(cell, block).is_ok() {
            changed.push(cell);
        }
    }
    let position = path[position_index];
    if is_valid_feet(world, position, 2) && is_valid_feet(world, goal, 2) {
        return true;
    }
    for change in world.take_changes().cells.iter().rev() {
        let _ = world.set(change.pos, change.old);
    }
    world.take_changes();
    false
}

#[derive(Default)]
struct Timings {
    fresh: Vec<f64>,
    fresh_on_the_fly: Vec<f64>,
    dstar: Vec<f64>,
    chosen: Vec<f64>,
    incremental_answers: usize,
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied().unwrap_or(0.0)
}

fn bench(seed: u64, queries: usize) -> Result<(), String> {
    let mut world = make_terrain(seed)?.into_world();
    world.track_changes(true);
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut astar = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
    let mut graph_astar = GraphSearch::new(costs).map_err(|e| e.to_string())?;
    let mut dstar = DStarLite::new(agent, costs).map_err(|e| e.to_string())?;
    let mut replanner = Replanner::new(agent, costs).map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(seed ^ 0xBEEF);
    // The walk graph of the unchanged world, compiled once: every query starts from a copy
    // (the world is restored after each query), and the fresh searches run over a copy
    // updated with the query's changes, as a server keeping one graph up to date would.
    let t = Instant::now();
    let graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
    let mut spares: Vec<NavGraph> = Vec::new();
    println!(
        "walk graph: compiled in {:.0} ms, {} feet positions, {:.1} bytes each",
        millis(t.elapsed()),
        graph.node_count(),
        graph.memory_bytes() as f64 / graph.node_count().max(1) as f64
    );
    let mut timings = Timings::default();
    let (mut route_lengths, mut changed_counts) = (0usize, 0usize);
    let mut plan_times = (0.0, 0.0);
    let mut expansions = (0u64, 0u64);
    while timings.fresh.len() < queries {
        let (start, goal, route) = pick_route(&world, &mut astar, &mut rng, 200)?;
        let position_index = route.path.len() / 8 + rng.below(route.path.len() as u64 / 3) as usize;
        let position = route.path[position_index];
        // Each planner plans over its own copy of the graph of the unchanged world, taken
        // back and brought up to date after each query (as a server would keep it), so that
        // no repair pays for a copy's first growth.
        let own = dstar
            .take_graph()
            .or_else(|| spares.pop())
            .unwrap_or_else(|| graph.clone());
        let t = Instant::now();
        dstar
            .plan_with_graph(own, start, goal)
            .map_err(|e| e.to_string())?;
        plan_times.1 += millis(t.elapsed());
        plan_times.0 += millis(route.stats.elapsed);
        let own = replanner
            .take_graph()
            .or_else(|| spares.pop())
            .unwrap_or_else(|| graph.clone());
        replanner
            .plan_with_graph(own, start, goal)
            .map_err(|e| e.to_string())?;
        world.take_changes();
        if !disturb(&mut world, &mut rng, &route.path, position_index) {
            continue;
        }
        let changes = world.take_changes();
        let changed: Vec<IVec3> = changes.positions().collect();

        // The fresh searches' times are the best of three runs; the repairs run once (they
        // change their state), so a busy machine's noise counts against them. The fresh
        // search over the graph is not charged for updating the graph; the repairs are.
        let mut updated = graph.clone();
        updated
            .apply_changes(&world, &changes)
            .map_err(|e| e.to_string())?;
        let mut fresh_time = f64::MAX;
        let mut fresh = None;
        for _ in 0..3 {
            let t = Instant::now();
            let result = graph_astar
                .find_path(&updated, position, goal, &SearchOptions::default())
                .map_err(|e| e.to_string())?;
            fresh_time = fresh_time.min(millis(t.elapsed()));
            fresh = Some(result);
        }
        let fresh = fresh.ok_or("no fresh search ran")?;
        let mut on_the_fly_time = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            let result = astar
                .find_path(&world, position, goal, &SearchOptions::default())
                .map_err(|e| e.to_string())?;
            on_the_fly_time = on_the_fly_time.min(millis(t.elapsed()));
            if result.cost != fresh.cost {
                return Err(format!(
                    "query {}: costs differ: A* over the graph {:?}, on the fly {:?}",
                    timings.fresh.len(),
                    fresh.cost,
                    result.cost
                ));
            }
        }
        let t = Instant::now();
        let repaired = dstar
            .replan_changes(&world, position, &changes)
            .map_err(|e| e.to_string())?;
        let dstar_time = millis(t.elapsed());
        let t = Instant::now();
        let chosen = replanner
            .replan_changes(&world, position, &changes)
            .map_err(|e| e.to_string())?;
        let chosen_time = millis(t.elapsed());
        expansions.0 += fresh.stats.expanded;
        expansions.1 += repaired.stats.expanded;
        if repaired.cost != fresh.cost || chosen.result.cost != fresh.cost {
            return Err(format!(
                "query {}: costs differ: fresh A* {:?}, D* Lite {:?}, replanner {:?}",
                timings.fresh.len(),
                fresh.cost,
                repaired.cost,
                chosen.result.cost
            ));
        }
        timings.fresh.push(fresh_time);
        timings.fresh_on_the_fly.push(on_the_fly_time);
        timings.dstar.push(dstar_time);
        timings.chosen.push(chosen_time);
        if chosen.method == ReplanMethod::Incremental {
            timings.incremental_answers += 1;
        }
        route_lengths += route.path.len();
        changed_counts += changed.len();
        for change in changes.cells.iter().rev() {
            world
                .set(change.pos, change.old)
                .map_err(|e| e.to_string())?;
        }
        let restored = world.take_changes();
        for own in [dstar.take_graph(), replanner.take_graph()] {
            let Some(mut own) = own else { continue };
            own.apply_changes(&world, &restored)
                .map_err(|e| e.to_string())?;
            spares.push(own);
        }
    }
    let n = timings.fresh.len() as f64;
    println!(
        "{queries} replans, seed {seed}: routes of {:.0} positions on average, {:.1} changed cells per query, equal costs on every query",
        route_lengths as f64 / n,
        changed_counts as f64 / n
    );
    println!(
        "first plans: A* on the fly {:.2} ms, D* Lite over a copy of the graph {:.2} ms (mean)",
        plan_times.0 / n,
        plan_times.1 / n
    );
    println!(
        "nodes expanded per replan (mean): fresh A* over the graph {:.0}, D* Lite repair {:.0}",
        expansions.0 as f64 / n,
        expansions.1 as f64 / n
    );
    println!("| replan | mean ms | median ms | speed-up vs fresh A* over the graph (mean) |");
    println!("|---|---|---|---|");
    let fresh_mean = mean(&timings.fresh);
    for (name, values) in [
        ("fresh A* over the graph", &timings.fresh),
        ("fresh A* on the fly", &timings.fresh_on_the_fly),
        ("D* Lite repair", &timings.dstar),
        ("Replanner (picks)", &timings.chosen),
    ] {
        println!(
            "| {name} | {:.3} | {:.3} | {:.1}x |",
            mean(values),
            median(values),
            fresh_mean / mean(values)
        );
    }
    println!(
        "Replanner answered {} of {queries} incrementally, the rest with a fresh A*",
        timings.incremental_answers
    );
    Ok(())
}

/// One replan of the demo, for the table and the picture.
struct Event {
    route: Vec<IVec3>,
    changed: Vec<IVec3>,
    npc: IVec3,
}

fn demo(args: &Args) -> Result<(), String> {
    let terrain = make_terrain(args.seed)?;
    let mut world = terrain.world().clone();
    let (agent, costs) = (Agent::default(), MoveCosts::default());
    let mut astar = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(args.seed);
    let (start, goal, _) = pick_route(&world, &mut astar, &mut rng, 220)?;
    let mut replanner = Replanner::new(agent, costs).map_err(|e| e.to_string())?;
    let t = Instant::now();
    let first = replanner
        .plan(&world, start, goal)
        .map_err(|e| e.to_string())?;
    println!(
        "route {start} -> {goal}: {} positions, cost {}, planned in {:.1} ms (A* and D* Lite)",
        first.path.len(),
        first.cost.unwrap_or(0),
        millis(t.elapsed())
    );
    world.track_changes(true);
    let mut events = vec![Event {
        route: first.path.clone(),
        changed: Vec::new(),
        npc: start,
    }];
    let mut route = first.path;
    println!(
        "| event | NPC at | why | method | replan ms | fresh A* ms | cost before | cost after |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (what, progress) in [("trench", 5usize), ("lava", 2)] {
        let index = (route.len() / progress).min(route.len() - 1);
        let position = route[index];
        let ahead = &route[index..];
        let before = check_path(&world, &agent, &costs, ahead).cost.unwrap_or(0);
        let target = ahead[(ahead.len() / 4).min(ahead.len() - 1)];
        if what == "trench" {
            dig_trench(&mut world, &terrain, ahead, target)?;
        } else {
            pour_lava(&mut world, target)?;
        }
        let changes = world.take_changes();
        let check = check_path(&world, &agent, &costs, ahead);
        let why = match check.first_broken {
            Some(step) => format!(
                "{what}: step {step} ahead ({}) no longer legal",
                ahead[step]
            ),
            None => format!("{what}: route still legal, cost changed"),
        };
        let changed: Vec<IVec3> = changes.positions().collect();
        let t = Instant::now();
        let fresh = astar
            .find_path(&world, position, goal, &SearchOptions::default())
            .map_err(|e| e.to_string())?;
        let fresh_ms = millis(t.elapsed());
        let t = Instant::now();
        let replan = replanner
            .replan(&world, position, &changed)
            .map_err(|e| e.to_string())?;
        let replan_ms = millis(t.elapsed());
        if replan.result.cost != fresh.cost {
            return Err(format!(
                "replan cost {:?} differs from a fresh search's {:?}",
                replan.result.cost, fresh.cost
            ));
        }
        println!(
            "| {what} ({} cells) | {position} | {why} | {:?} | {replan_ms:.3} | {fresh_ms:.3} | {before} | {} |",
            changed.len(),
            replan.method,
            replan
                .result
                .cost
                .map_or_else(|| "unreachable".into(), |c| c.to_string()),
        );
        route = replan.result.path;
        events.push(Event {
            route: route.clone(),
            changed,
            npc: position,
        });
        if route.is_empty() {
            return Err("the goal became unreachable; try another --seed".into());
        }
    }
    println!(
        "the NPC walks the last {} positions to {goal}",
        route.len().saturating_sub(1)
    );
    write_picture(&world, &events, &args.picture)?;
    println!(
        "wrote {} (red: first route, orange: after the trench, green: after the lava; black: trench, yellow: lava, white: where the NPC replanned)",
        args.picture
    );
    Ok(())
}

/// A trench 4 deep and 21 long across the route at `target`, dug into the ground of each
/// column (anything standing on it is cleared too), two cells thick when the route runs
/// diagonally there, so that no diagonal step can slip between its cells.
fn dig_trench(
    world: &mut ChunkedWorld,
    terrain: &Terrain,
    ahead: &[IVec3],
    target: IVec3,
) -> Result<(), String> {
    let i = ahead.iter().position(|&p| p == target).unwrap_or(0);
    let next = ahead.get(i + 1).copied().unwrap_or(target + IVec3::X);
    let along = (next - target) * IVec3::new(1, 0, 1);
    let across = IVec3::new(-along.z, 0, along.x);
    let thickness = if along.x != 0 && along.z != 0 { 2 } else { 1 };
    let top = size(world).y - 1;
    for o in -10..=10 {
        for t in 0..thickness {
            let column = target + across * o + IVec3::new(along.x * t, 0, 0);
            let Some(ground) = terrain.ground(column.x, column.z) else {
                continue;
            };
            for y in (ground - 4).max(1)..=(ground + 6).min(top) {
                world
                    .set(IVec3::new(column.x, y, column.z), Block::Air)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// A pool of lava, 5x5, in the ground at `target`.
fn pour_lava(world: &mut ChunkedWorld, target: IVec3) -> Result<(), String> {
    for dx in -2..=2 {
        for dz in -2..=2 {
            if let Some(feet) = surface(world, target.x + dx, target.z + dz) {
                world
                    .set(feet - IVec3::Y, Block::Lava)
                    .map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

/// A top-down PNG picture of the routes' neighbourhood, 3 pixels per column.
fn write_picture(world: &ChunkedWorld, events: &[Event], path: &str) -> Result<(), String> {
    const SCALE: i32 = 3;
    let all = events.iter().flat_map(|e| e.route.iter());
    let (mut lo, mut hi) = (IVec3::splat(i32::MAX), IVec3::splat(i32::MIN));
    for p in all {
        lo = lo.min(*p);
        hi = hi.max(*p);
    }
    let lo = (lo - IVec3::splat(12)).max(IVec3::ZERO);
    let hi = (hi + IVec3::splat(12)).min(size(world) - IVec3::ONE);
    let (w, h) = (hi.x - lo.x + 1, hi.z - lo.z + 1);
    let mut pixels = vec![[0u8; 3]; (w * h) as usize];
    for z in lo.z..=hi.z {
        for x in lo.x..=hi.x {
            let top = (0..size(world).y)
                .rev()
                .find(|&y| !world.is_passable(IVec3::new(x, y, z)));
            let colour = match top.and_then(|y| world.get(IVec3::new(x, y, z)).map(|b| (y, b))) {
                Some((_, Block::Lava)) => [255, 220, 0],
                Some((y, _)) => {
                    let shade = (40 + y * 4).clamp(0, 230) as u8;
                    [shade, shade, shade]
                }
                None => [0, 0, 60],
            };
            pixels[((z - lo.z) * w + (x - lo.x)) as usize] = colour;
        }
    }
    let inside = |p: IVec3| (lo.x..=hi.x).contains(&p.x) && (lo.z..=hi.z).contains(&p.z);
    let index = |p: IVec3| ((p.z - lo.z) * w + (p.x - lo.x)) as usize;
    for p in events.iter().flat_map(|e| &e.changed) {
        if inside(*p) && world.get(*p) == Some(Block::Air) {
            pixels[index(*p)] = [10, 10, 10];
        }
    }
    let palette = [[220, 30, 30], [255, 140, 0], [40, 200, 60]];
    for (event, colour) in events.iter().zip(palette) {
        for p in &event.route {
            pixels[index(*p)] = colour;
        }
    }
    for event in events {
        pixels[index(event.npc)] = [255, 255, 255];
    }
    let mut out = Vec::with_capacity((w * h * SCALE * SCALE * 3) as usize);
    for z in 0..h * SCALE {
        for x in 0..w * SCALE {
            out.extend_from_slice(&pixels[((z / SCALE) * w + x / SCALE) as usize]);
        }
    }
    let failed = |e: &dyn std::fmt::Display| format!("cannot write {path}: {e}");
    let file = std::fs::File::create(path).map_err(|e| failed(&e))?;
    let mut encoder = png::Encoder::new(
        std::io::BufWriter::new(file),
        (w * SCALE) as u32,
        (h * SCALE) as u32,
    );
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| failed(&e))?;
    writer.write_image_data(&out).map_err(|e| failed(&e))?;
    writer.finish().map_err(|e| failed(&e))
}
