//! What one block edit costs a navigator that keeps a walk graph and a reachability index,
//! on a saved Minecraft world: the index followed locally (`--mode local`, what
//! `IndexedRouter::apply_changes` does now) or relabelled from the graph after each edit
//! (`--mode relabel`, what it did before issue 21 item 3).
//!
//! ```text
//! cargo run --release --example reach_edit -- /work/shared/data/minecraft/vanilla-1.21.11 --edits 200 --mode local
//! ```
//!
//! Timings on a shared machine are noise; instruction counts are not. Only the edit loop is
//! counted so:
//!
//! ```text
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no \
//!     '--toggle-collect=reach_edit::apply_edits' \
//!     target/release/examples/reach_edit WORLD --edits 20 --mode relabel
//! ```
//!
//! Measured so on the 1.21.11 save (20 edits: 10 blocks placed and taken away again; load
//! average about 3, so the wall clock is only indicative): `--mode local` 2 488 299
//! instructions in all (about 124 k per edit, graph update included; the first edit also
//! allocates the union-find over the build's regions), `--mode relabel` 14 179 485 023
//! (about 709 M per edit). Wall clock with `--edits 200` / `--edits 10`: local p50 5.3 µs,
//! p99 13.6 µs, max 143 µs; relabel p50 118 ms, max 147 ms.
//!
//! `--columns N` also unloads N chunk columns one at a time and loads each again from its
//! own blocks (so the decode is left out), timing the navigator's `apply_changes` after each
//! unload and each load: what a chunk costs the graph and the index kept current.
//!
//! `--long-routes` keeps the abstraction for long routes current too, as a
//! [`Router`](voxnav::Router) does by default: what an edit and a chunk cost the router's
//! `apply_changes`.
//!
//! Bad input prints one line on stderr and exits with code 2.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use voxnav::anvil::load_world;
use voxnav::engine::{IndexedRouter, Navigator};
use voxnav::world::Bounds;
use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, VoxelWorld};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("reach_edit: {message}");
            ExitCode::from(2)
        }
    }
}

/// The options: a world path, `--edits N`, `--mode local|relabel`, `--columns N`,
/// `--long-routes`.
struct Args {
    world: String,
    edits: usize,
    relabel: bool,
    columns: usize,
    long_routes: bool,
}

fn parse() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let (mut world, mut edits, mut relabel, mut columns) = (None, 200, false, 0);
    let mut long_routes = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--edits" => {
                let value = args.next().ok_or("--edits needs a number")?;
                edits = value
                    .parse()
                    .map_err(|_| format!("--edits needs a number, not {value:?}"))?;
            }
            "--columns" => {
                let value = args.next().ok_or("--columns needs a number")?;
                columns = value
                    .parse()
                    .map_err(|_| format!("--columns needs a number, not {value:?}"))?;
            }
            "--long-routes" => long_routes = true,
            "--mode" => match args.next().as_deref() {
                Some("local") => relabel = false,
                Some("relabel") => relabel = true,
                other => return Err(format!("--mode is local or relabel, not {other:?}")),
            },
            _ if world.is_none() && !arg.starts_with("--") => world = Some(arg),
            _ => return Err(format!("unexpected argument {arg:?}")),
        }
    }
    let world = world.ok_or("give the path of a saved world (a folder or region file)")?;
    Ok(Args {
        world,
        edits,
        relabel,
        columns,
        long_routes,
    })
}

fn run() -> Result<(), String> {
    let args = parse()?;
    let mut loaded = load_world(&args.world).map_err(|e| e.to_string())?;
    let sites = surface_sites(&loaded.world, &loaded.loaded_chunks, args.edits);
    if sites.is_empty() {
        return Err("no ground to edit in the loaded chunks".to_owned());
    }
    let mut navigator =
        Navigator::new(Agent::default(), MoveCosts::default()).map_err(|e| e.to_string())?;
    if args.long_routes {
        navigator
            .index_slot_mut()
            .set_long_routes(Some(MoveCosts::default()));
    }
    navigator
        .build_graph(&loaded.world)
        .map_err(|e| e.to_string())?;
    navigator
        .build_index(&loaded.world)
        .map_err(|e| e.to_string())?;
    loaded.world.track_changes(true);
    let mut times = apply_edits(&mut loaded.world, &mut navigator, &sites, args.relabel)?;
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "mode {}: {} edits (each placed then removed), per apply_changes: p50 {:?}, p99 {:?}, max {:?}",
        if args.relabel { "relabel" } else { "local" },
        times.len(),
        at(0.5),
        at(0.99),
        at(1.0)
    );
    if args.columns > 0 {
        let chunks: Vec<(i32, i32)> = spread(&loaded.loaded_chunks, args.columns);
        let (mut unloads, mut loads) = reload_columns(&mut loaded.world, &mut navigator, &chunks)?;
        for (what, times) in [("unload", &mut unloads), ("load", &mut loads)] {
            times.sort_unstable();
            let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
            println!(
                "column {what}: {} columns, per apply_changes: p50 {:?}, p99 {:?}, max {:?}",
                times.len(),
                at(0.5),
                at(0.99),
                at(1.0)
            );
        }
    }
    let index = navigator.index().ok_or("the index was dropped")?;
    println!(
        "index: {} local updates, {} bytes",
        index.local_updates(),
        index.memory_bytes()
    );
    if let Some(graph) = navigator.graph() {
        println!(
            "graph: {} nodes, {} bytes, {:.1} bytes per feet position",
            graph.node_count(),
            graph.memory_bytes(),
            graph.memory_bytes() as f64 / graph.node_count().max(1) as f64
        );
    }
    if let Some(abstraction) = navigator.index_slot().abstraction() {
        println!(
            "abstraction for long routes: {} cells, {} portals, {} bytes",
            abstraction.cell_count(),
            abstraction.portal_count(),
            abstraction.memory_bytes()
        );
    }
    Ok(())
}

/// Up to `count` of `chunks`, spread evenly over the list.
fn spread(chunks: &[(i32, i32)], count: usize) -> Vec<(i32, i32)> {
    let step = (chunks.len() / count.max(1)).max(1);
    chunks.iter().step_by(step).take(count).copied().collect()
}

/// One chunk column's blocks as sections from the world's lowest y up, each a palette and
/// its 4096 indices in Minecraft's order (y, then z, then x), as `insert_column` takes them.
fn column_sections(
    world: &ChunkedWorld,
    bounds: Bounds,
    (cx, cz): (i32, i32),
) -> Vec<(Vec<Block>, Vec<u16>)> {
    let mut sections = Vec::new();
    for base in (bounds.min.y..bounds.max.y).step_by(16) {
        let (mut palette, mut indices) = (Vec::<Block>::new(), Vec::with_capacity(4096));
        for i in 0..4096 {
            let p = IVec3::new(
                cx * 16 + (i & 15),
                base + (i >> 8),
                cz * 16 + ((i >> 4) & 15),
            );
            let block = world.get(p).unwrap_or(Block::Air);
            let at = match palette.iter().position(|&b| b == block) {
                Some(at) => at,
                None => {
                    palette.push(block);
                    palette.len() - 1
                }
            };
            indices.push(at as u16);
        }
        sections.push((palette, indices));
    }
    sections
}

/// Unloads each column and loads it again from its own blocks, bringing the navigator up to
/// date after each: the times of the unloads' and the loads' updates.
#[inline(never)]
fn reload_columns(
    world: &mut ChunkedWorld,
    navigator: &mut Navigator,
    chunks: &[(i32, i32)],
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    let bounds = world.bounds().ok_or("the world has no bounds")?;
    let (mut unloads, mut loads) = (Vec::new(), Vec::new());
    for &(cx, cz) in chunks {
        let sections = column_sections(world, bounds, (cx, cz));
        world.remove_column(cx, cz);
        let changes = world.take_changes();
        let started = Instant::now();
        navigator
            .apply_changes(&*world, &changes)
            .map_err(|e| e.to_string())?;
        unloads.push(started.elapsed());
        world
            .insert_column(
                cx,
                cz,
                sections.iter().map(|(p, i)| (p.as_slice(), i.as_slice())),
            )
            .map_err(|e| e.to_string())?;
        let changes = world.take_changes();
        let started = Instant::now();
        navigator
            .apply_changes(&*world, &changes)
            .map_err(|e| e.to_string())?;
        loads.push(started.elapsed());
    }
    Ok((unloads, loads))
}

/// Up to `count` feet positions on the ground of the loaded chunks, spread over them.
fn surface_sites(world: &ChunkedWorld, chunks: &[(i32, i32)], count: usize) -> Vec<IVec3> {
    let Some(bounds) = world.bounds() else {
        return Vec::new();
    };
    let mut sites = Vec::new();
    for (i, &(cx, cz)) in chunks.iter().enumerate().take(count) {
        let (x, z) = (
            cx * 16 + (i as i32 * 7) % 16,
            cz * 16 + (i as i32 * 11) % 16,
        );
        // The highest cell that can be stood on, from the top down.
        let ground = (bounds.min.y..bounds.max.y - 2)
            .rev()
            .find(|&y| world.is_standable(IVec3::new(x, y, z)));
        if let Some(y) = ground {
            sites.push(IVec3::new(x, y + 1, z));
        }
    }
    sites
}

/// Places a block at each site and takes it away again, bringing the navigator up to date
/// after each edit (and relabelling its index when `relabel`): the time of each update.
#[inline(never)]
fn apply_edits(
    world: &mut ChunkedWorld,
    navigator: &mut Navigator,
    sites: &[IVec3],
    relabel: bool,
) -> Result<Vec<Duration>, String> {
    let mut times = Vec::with_capacity(sites.len() * 2);
    for &site in sites {
        for block in [Block::Solid, Block::Air] {
            world.set(site, block).map_err(|e| e.to_string())?;
            let changes = world.take_changes();
            let started = Instant::now();
            navigator
                .apply_changes(&*world, &changes)
                .map_err(|e| e.to_string())?;
            if relabel {
                navigator.build_index(&*world).map_err(|e| e.to_string())?;
            }
            times.push(started.elapsed());
        }
    }
    Ok(times)
}
