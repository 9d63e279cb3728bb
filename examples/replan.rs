//! An NPC walks a long route across the default procedural terrain while a player digs a
//! trench across it and then pours lava on it. Each time, the NPC checks the rest of its
//! route, replans from where it stands, and the example prints where, why, how long the
//! incremental replan took against a fresh A*, and the cost before and after; at the end it
//! writes a top-down picture (PNG) of the old and new routes.
//!
//! ```text
//! cargo run --release --example replan -- [--seed N] [--picture PATH]
//! cargo run --release --example replan -- --bench QUERIES [--seed N]
//! ```
//!
//! `--bench QUERIES` runs the replanning benchmark instead (the same as
//! `cargo run --release --example replan_bench -- QUERIES`, see `support::replan`).
//! Bad input prints one line on stderr and exits with code 2; `--help` lists the options.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use voxnav::engine::Pathfinder;
use voxnav::terrain::{SplitMix64, Terrain};
use voxnav::{
    Agent, Block, ChunkedWorld, IVec3, MoveCosts, Replanner, SearchOptions, VoxelWorld, check_path,
};
#[path = "support/src/mod.rs"]
mod support;
use support::args::{Output, finish};
use support::picture::Picture;
use support::replan::{bench, make_terrain, millis, pick_route, size, surface};

/// An NPC replans its route across the procedural terrain while a player digs a trench
/// across it and pours lava on it; prints each replan and writes a picture of the routes.
#[derive(Parser)]
#[command(name = "replan")]
struct Args {
    /// The world's seed (the default terrain, 512 x 128 x 512).
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// Where to write the picture (PNG); checked before the work starts.
    #[arg(long, value_name = "FILE.png", default_value = "replan.png")]
    picture: String,
    /// Runs the replanning benchmark with this many replans (1 to 100000) instead of the
    /// demo; the same as the `replan_bench` example.
    #[arg(long, value_name = "QUERIES",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    bench: Option<u32>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    finish(
        "replan",
        match args.bench {
            Some(queries) => bench(args.seed, queries as usize),
            None => demo(&args),
        },
    )
}

/// One replan of the demo, for the table and the picture.
struct Event {
    route: Vec<IVec3>,
    changed: Vec<IVec3>,
    npc: IVec3,
}

fn demo(args: &Args) -> Result<(), String> {
    let out = Output::create(&args.picture)?;
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
        "route {start} -> {goal}: {} positions, cost {}, planned in {:.1} ms (the replanner's backward A*)",
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
    write_picture(&world, &events, out)?;
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
fn write_picture(world: &ChunkedWorld, events: &[Event], out: Output) -> Result<(), String> {
    const SCALE: u32 = 3;
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
    Picture::from_cells(w as u32, h as u32, SCALE, |x, z| {
        pixels[(z * w as u32 + x) as usize]
    })
    .write_png(out)
}
