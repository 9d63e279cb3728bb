//! A chase: one target (a player) walks across the procedural terrain and 1 000 NPCs chase it,
//! all steered by one shared `ChaseField` (a backward Dijkstra from the target, rebuilt when
//! the target reaches a new block) instead of a search each.
//!
//! ```text
//! cargo run --release --example chase -- [--chasers N] [--ticks N] [--radius COST]
//!     [--size N] [--seed N]
//! ```
//!
//! Prints the field's rebuilds (count, nodes, time), the cost per tick (p50, p99, max: the
//! rebuild when the target moved, plus one step decision per chaser that finished its move),
//! how many chasers caught the target, and the per-call cost of `PathFollower::tick`. Times are
//! wall clock on one thread: take them on a quiet machine. Bad input prints one line on stderr
//! and exits with code 2.

use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use voxnav::chase::ChaseField;
use voxnav::terrain::{SplitMix64, TerrainConfig, generate_terrain, pick_pairs, surface_feet};
use voxnav::{Agent, DVec3, IVec3, MoveCosts, PathFollower, Router, SearchStatus};
#[path = "support/src/mod.rs"]
mod support;
use support::args::finish;

/// Chases one walking target with many NPCs sharing one chase field.
#[derive(Parser)]
#[command(name = "chase")]
struct Cli {
    /// How many chasers (1 to 100000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    chasers: u32,
    /// How many ticks to run (20 per second; 1 to 72000).
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u32).range(1..=72_000))]
    ticks: u32,
    /// The field's radius in cost units (10 per block walked straight; 10 to 100000).
    #[arg(long, default_value_t = 1200, value_parser = clap::value_parser!(u64).range(10..=100_000))]
    radius: u64,
    /// The world's size in x and z (64 to 2048).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(i32).range(64..=2048))]
    size: i32,
    /// The world's seed.
    #[arg(long, default_value_t = 1337)]
    seed: u64,
}

/// Blocks per tick at walking speed (4.317 m/s): the target walks, the chasers too.
const WALK_SPEED: f64 = 0.2159;

/// Something that walks from feet position to feet position at walking speed.
#[derive(Clone, Copy)]
struct Walker {
    at: IVec3,
    /// The position it is walking to, and how far along it is (blocks).
    next: Option<(IVec3, f64)>,
}

impl Walker {
    /// Advances one tick; returns whether it arrived at a feet position this tick.
    fn step(&mut self) -> bool {
        let Some((to, done)) = self.next else {
            return true;
        };
        let d = to - self.at;
        let length = f64::from(d.x * d.x + d.z * d.z).sqrt().max(1.0);
        let done = done + WALK_SPEED;
        if done >= length {
            self.at = to;
            self.next = None;
            true
        } else {
            self.next = Some((to, done));
            false
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

fn run(cli: &Cli) -> Result<(), String> {
    let config = TerrainConfig {
        seed: cli.seed,
        size_x: cli.size,
        size_z: cli.size,
        ..TerrainConfig::default()
    };
    let world = generate_terrain(&config).map_err(|e| e.to_string())?;
    let agent = Agent::default();
    let costs = MoveCosts::default();
    let mut router = Router::new(agent, costs).map_err(|e| e.to_string())?;
    let started = Instant::now();
    router.prepare(&world).map_err(|e| e.to_string())?;
    let graph = router.graph().ok_or("the world has no walk graph")?;
    println!(
        "world {} x 128 x {}, seed {}: walk graph of {} nodes compiled in {:.0} ms",
        cli.size,
        cli.size,
        cli.seed,
        graph.node_count(),
        started.elapsed().as_secs_f64() * 1e3
    );

    // The target's walk: a long route across the land.
    let far = (cli.size as f32) * 0.6;
    let (route, target_start) = pick_pairs(&world, &agent, cli.seed, 64, (far * 0.5)..=far)
        .into_iter()
        .find_map(|(start, goal)| {
            let route = router.route(&world, start, goal).ok()?;
            (route.status == SearchStatus::Found).then_some((route.path, start))
        })
        .ok_or("no route for the target found on this world")?;

    // Chasers on open ground within about 40 blocks of the target's start.
    let mut rng = SplitMix64::new(cli.seed ^ 0x00c4_a5e5);
    let mut chasers = Vec::with_capacity(cli.chasers as usize);
    let mut tries = 0u64;
    while chasers.len() < cli.chasers as usize && tries < 1000 * u64::from(cli.chasers) {
        tries += 1;
        let x = target_start.x + (rng.next_u64() % 81) as i32 - 40;
        let z = target_start.z + (rng.next_u64() % 81) as i32 - 40;
        if let Some(feet) = surface_feet(&world, &agent, x, z) {
            chasers.push(Walker {
                at: feet,
                next: None,
            });
        }
    }
    if chasers.is_empty() {
        return Err("no open ground for chasers near the target".into());
    }

    let mut field = ChaseField::new(costs, cli.radius);
    let mut target = Walker {
        at: route[0],
        next: None,
    };
    let mut route_index = 0usize;
    let mut tick_micros = Vec::with_capacity(cli.ticks as usize);
    let mut rebuild_micros = Vec::new();
    let mut rebuild_nodes = 0usize;
    let mut caught = vec![false; chasers.len()];
    for _ in 0..cli.ticks {
        if target.step() && route_index + 1 < route.len() {
            route_index += 1;
            target.next = Some((route[route_index], 0.0));
        }
        let tick_started = Instant::now();
        let rebuild_started = Instant::now();
        if field
            .retarget(graph, target.at)
            .map_err(|e| e.to_string())?
        {
            rebuild_micros.push(rebuild_started.elapsed().as_secs_f64() * 1e6);
            rebuild_nodes += field.settled();
        }
        for (chaser, caught) in chasers.iter_mut().zip(caught.iter_mut()) {
            if *caught {
                continue;
            }
            if chaser.step() {
                if chaser.at == target.at {
                    *caught = true;
                    continue;
                }
                chaser.next = field.next_step(graph, chaser.at).map(|to| (to, 0.0));
            }
        }
        tick_micros.push(tick_started.elapsed().as_secs_f64() * 1e6);
    }
    tick_micros.sort_by(f64::total_cmp);
    rebuild_micros.sort_by(f64::total_cmp);
    let caught_count = caught.iter().filter(|&&c| c).count();
    let chasing = chasers
        .iter()
        .zip(&caught)
        .filter(|(c, caught)| !**caught && field.cost_to_target(graph, c.at).is_some())
        .count();
    let outside = chasers.len() - caught_count - chasing;
    println!(
        "target walked {} of {} route steps; {} chasers",
        route_index,
        route.len() - 1,
        chasers.len()
    );
    println!(
        "field rebuilds: {} (mean {:.0} nodes, p50 {:.0} us, p99 {:.0} us, max {:.0} us)",
        rebuild_micros.len(),
        rebuild_nodes as f64 / rebuild_micros.len().max(1) as f64,
        percentile(&rebuild_micros, 0.5),
        percentile(&rebuild_micros, 0.99),
        rebuild_micros.last().copied().unwrap_or(0.0)
    );
    println!(
        "cost per tick: p50 {:.1} us, p99 {:.1} us, max {:.1} us ({} ticks, one thread)",
        percentile(&tick_micros, 0.5),
        percentile(&tick_micros, 0.99),
        tick_micros.last().copied().unwrap_or(0.0),
        tick_micros.len()
    );
    println!(
        "caught the target: {caught_count} of {}; still chasing: {chasing}; outside the field (cut off from the target, or further than the radius): {outside}",
        chasers.len()
    );

    // The follower's per-tick call, on the target's route, at positions along it.
    let mut follower = PathFollower::new(&world, &agent, route.clone());
    let positions: Vec<DVec3> = route
        .iter()
        .map(|p| DVec3::new(f64::from(p.x) + 0.5, f64::from(p.y), f64::from(p.z) + 0.5))
        .collect();
    let calls = 200_000usize;
    let started = Instant::now();
    let mut arrived = 0u32;
    for i in 0..calls {
        let position = positions[(i * positions.len() / calls).min(positions.len() - 1)];
        let steer = follower.tick(&world, std::hint::black_box(position));
        arrived += u32::from(steer.state == voxnav::FollowState::Arrived);
    }
    let nanos = started.elapsed().as_secs_f64() * 1e9 / calls as f64;
    println!(
        "PathFollower::tick: {nanos:.0} ns per call ({calls} calls along a {}-step route, {arrived} at the end)",
        route.len() - 1
    );
    Ok(())
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    finish("chase", run(&cli))
}
