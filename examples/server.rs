//! A simulated game server on the procedural terrain (issue 21): players walk and sprint,
//! loading and unloading chunk columns around them at a view distance, edit blocks, and NPCs
//! re-route toward them every 2 s on a worker thread, from snapshots of the world.
//!
//! ```text
//! cargo run --release --example server -- [--players N] [--seconds S] [--view CHUNKS]
//!     [--npcs N] [--edits N] [--loads-per-tick N] [--sample N] [--seed N] [--long-routes]
//! ```
//!
//! The tick thread owns the world (a [`ChunkedWorld::with_height`] of chunk columns) and its
//! walk graph, and keeps the graph current after every chunk load, unload and block edit
//! ([`NavGraph::apply_changes`]); the worker searches [`WorldSnapshot`]s the tick thread
//! hands it, so a query never stalls a tick. A column's contents come from the generated
//! terrain, read into sections before the timer starts (the analogue of decoding a chunk's
//! NBT, excluded from the figures); edits are saved into the terrain too, so a column loaded
//! again comes back edited, as a server's saved chunks do.
//!
//! It prints, per kind of work, the count and the p50 / p99 / max time; the memory held over
//! time with the graph's bytes and the graph's and the reachability index's together per
//! loaded feet position; then it checks the live state against a
//! from-scratch build of the same world (every cell of the loaded columns, every node and
//! move of the graph, and the route cost of a sample of queries) and fails with exit code 1
//! on any difference. The last line is `tick budget: W ms worst tick, P ms p99 tick`.
//!
//! The graph starts empty (compiled from the world before any column loads) and grows and
//! shrinks with the loaded columns: no bounds are chosen up front, and its memory follows
//! the loaded chunks (see the bytes per feet position). A reachability index follows the
//! graph's updates ([`ReachIndex::apply_update`]); loads, unloads and edits include both.
//! With `--long-routes` they include the updates of the abstraction for long routes too
//! ([`voxnav::hier::Abstraction`], which a prepared `Router` keeps for walkers by default),
//! and the check at the end compares its edges with one built afresh from the live graph.
//!
//! On a busy machine, count instructions per operation instead of timing it: loads, unloads
//! and edits are the out-of-line functions `load_column`, `unload_column` and `edit_block`,
//! and
//!
//! ```text
//! valgrind --tool=callgrind --collect-atstart=no --toggle-collect=server::live::load_column \
//!     --dump-after=server::live::load_column --callgrind-out-file=/tmp/load/cg.out \
//!     target/release/examples/server
//! ```
//!
//! writes one profile per load, whose `summary:` line is that load's count.

#[path = "support/src/mod.rs"]
mod support;

#[cfg(not(feature = "terrain"))]
fn main() {
    eprintln!("server: needs the `terrain` feature (on by default)");
}

#[cfg(feature = "terrain")]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    live::finish("server", live::run(&live::Cli::parse()))
}

#[cfg(feature = "terrain")]
mod live {
    use std::collections::{BTreeMap, BTreeSet};
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    use clap::Parser;
    use voxnav::engine::{Pathfinder, ReachIndex};
    use voxnav::graph::{GraphSearch, NavGraph};
    use voxnav::hier::Abstraction;
    use voxnav::terrain::{SplitMix64, TerrainConfig, generate_terrain};
    use voxnav::world::{WorldSnapshot, is_valid_feet};
    use voxnav::{Agent, Block, ChunkedWorld, IVec3, MoveCosts, SearchOptions, VoxelWorld};

    pub use crate::support::args::finish;

    /// The terrain: 32 x 32 chunk columns, 128 blocks tall.
    const SIZE: i32 = 512;
    const HEIGHT: i32 = 128;
    const SECTIONS: i32 = HEIGHT / 16;
    /// A tick of the game: 50 ms.
    const TICK: f64 = 0.05;
    /// Walking and sprinting speeds, blocks per second (Minecraft's).
    const WALK: f64 = 4.317;
    const SPRINT: f64 = 5.612;
    /// How often an NPC re-routes, in seconds.
    const REPLAN: f64 = 2.0;

    /// Replays a simulated server: players moving, chunks loading and unloading, block
    /// edits and NPC queries, with per-operation timings and a final check against a
    /// from-scratch build.
    #[derive(Parser)]
    #[command(name = "server")]
    pub struct Cli {
        /// Players (1 to 16).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=16))]
        players: u32,
        /// Simulated seconds (1 to 3600).
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=3600))]
        seconds: u32,
        /// View distance in chunks (1 to 6): the columns within it around a player are loaded.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=6))]
        view: u32,
        /// NPCs per player, each re-routing toward its player every 2 s (0 to 16).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=16))]
        npcs: u32,
        /// Block edits per second per player (0 to 100).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=100))]
        edits: u32,
        /// The most chunk columns loaded per tick (1 to 1000), as servers spread loading.
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000))]
        loads_per_tick: u32,
        /// Queries whose route costs are checked against a fresh build at the end (0 to 1000).
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=1000))]
        sample: u32,
        /// The terrain's and the simulation's seed.
        #[arg(long, default_value_t = 1337)]
        seed: u64,
        /// Keeps the abstraction for long routes (`voxnav::hier::Abstraction`) current too,
        /// as a prepared `Router` does for walkers by default: loads, unloads and edits then
        /// include its updates.
        #[arg(long)]
        long_routes: bool,
    }

    /// One column's sections, read from the terrain: a palette and 4096 indices each.
    type Sections = Vec<(Vec<Block>, Vec<u16>)>;

    /// Reads column `(cx, cz)` of `source` into sections: the "decode" of this server.
    fn read_column(source: &ChunkedWorld, cx: i32, cz: i32) -> Sections {
        (0..SECTIONS)
            .map(|s| {
                let mut palette: Vec<Block> = Vec::new();
                let mut indices = vec![0u16; 4096];
                for (i, index) in indices.iter_mut().enumerate() {
                    let i = i as i32;
                    let p = IVec3::new(
                        cx * 16 + (i & 15),
                        s * 16 + (i >> 8),
                        cz * 16 + ((i >> 4) & 15),
                    );
                    let block = source.get(p).unwrap_or(Block::Barrier);
                    *index = match palette.iter().position(|&b| b == block) {
                        Some(k) => k as u16,
                        None => {
                            palette.push(block);
                            (palette.len() - 1) as u16
                        }
                    };
                }
                (palette, indices)
            })
            .collect()
    }

    fn insert(
        world: &mut ChunkedWorld,
        (cx, cz): (i32, i32),
        sections: &Sections,
    ) -> Result<(), String> {
        world
            .insert_column(
                cx,
                cz,
                sections.iter().map(|(p, i)| (p.as_slice(), i.as_slice())),
            )
            .map_err(|e| e.to_string())
    }

    /// A world of chunk columns of the terrain's height, no column loaded.
    fn empty_world() -> Result<ChunkedWorld, String> {
        ChunkedWorld::with_height(0, HEIGHT).map_err(|e| e.to_string())
    }

    /// Times of one kind of work.
    #[derive(Default)]
    struct Times(Vec<Duration>);

    impl Times {
        fn row(&mut self, name: &str) -> String {
            self.0.sort_unstable();
            let at = |q: f64| {
                self.0
                    .get(((self.0.len() as f64 - 1.0) * q).round() as usize)
                    .map_or(0.0, |d| d.as_secs_f64() * 1e6)
            };
            format!(
                "{name:<16} {:>8} {:>10.1} {:>10.1} {:>10.1}",
                self.0.len(),
                at(0.5),
                at(0.99),
                at(1.0)
            )
        }
    }

    /// The highest valid feet position of column `(x, z)` in `world`, if any.
    fn surface<W: VoxelWorld + ?Sized>(world: &W, x: i32, z: i32) -> Option<IVec3> {
        (1..HEIGHT - 2)
            .rev()
            .map(|y| IVec3::new(x, y, z))
            .find(|&feet| is_valid_feet(world, feet, 2))
    }

    struct Player {
        x: f64,
        z: f64,
        heading: f64,
    }

    /// A query for the worker: an NPC's start, its player's feet, and the snapshot.
    struct Job {
        snapshot: WorldSnapshot,
        start: IVec3,
        goal: IVec3,
    }

    pub fn run(cli: &Cli) -> Result<(), String> {
        let started = Instant::now();
        let config = TerrainConfig {
            seed: cli.seed,
            size_x: SIZE,
            size_y: HEIGHT,
            size_z: SIZE,
            ..TerrainConfig::default()
        };
        let mut source = generate_terrain(&config).map_err(|e| e.to_string())?;
        println!(
            "server: {} players, view {} chunks, {} NPCs each, {} edits/s each, {} s simulated; \
             terrain {SIZE} x {HEIGHT} x {SIZE} generated in {:.1} s",
            cli.players,
            cli.view,
            cli.npcs,
            cli.edits,
            cli.seconds,
            started.elapsed().as_secs_f64()
        );
        let agent = Agent::default();
        let mut world = empty_world()?;
        let mut graph = NavGraph::compile(&world, &agent).map_err(|e| e.to_string())?;
        let mut index = ReachIndex::from_graph(&world, &graph).map_err(|e| e.to_string())?;
        let mut hpa = if cli.long_routes {
            Some(Abstraction::build(&graph, &MoveCosts::default()).map_err(|e| e.to_string())?)
        } else {
            None
        };
        world.track_changes(true);

        let (jobs, job_queue) = mpsc::channel::<Job>();
        let (answers, answer_queue) = mpsc::channel::<Duration>();
        let worker = std::thread::spawn(move || {
            let mut pathfinder = Pathfinder::new(Agent::default(), MoveCosts::default())
                .expect("the default agent and costs are valid");
            let options = SearchOptions::default().with_max_nodes(50_000);
            for job in job_queue {
                let at = Instant::now();
                // A start or goal that is not a valid feet position any more is an answer too.
                let _ = pathfinder.find_path(&job.snapshot, job.start, job.goal, &options);
                if answers.send(at.elapsed()).is_err() {
                    break;
                }
            }
        });

        let mut rng = SplitMix64::new(cli.seed);
        let view = cli.view as i32;
        let margin = f64::from((view + 1) * 16);
        let mut players: Vec<Player> = (0..cli.players)
            .map(|_| Player {
                x: margin + f64::from(rng.next_f32()) * (f64::from(SIZE) - 2.0 * margin),
                z: margin + f64::from(rng.next_f32()) * (f64::from(SIZE) - 2.0 * margin),
                heading: f64::from(rng.next_f32()) * std::f64::consts::TAU,
            })
            .collect();
        let npc_count = (cli.players * cli.npcs) as usize;
        let mut npc_due: Vec<f64> = (0..npc_count)
            .map(|i| REPLAN * i as f64 / npc_count.max(1) as f64)
            .collect();
        let (mut loads, mut unloads, mut edits, mut snapshots, mut queries, mut ticks) = (
            Times::default(),
            Times::default(),
            Times::default(),
            Times::default(),
            Times::default(),
            Times::default(),
        );
        let mut memory = Vec::new();
        let mut edit_credit = 0.0;
        let mut skipped_queries = 0usize;
        let tick_count = (f64::from(cli.seconds) / TICK) as usize;
        for tick in 0..tick_count {
            let now = tick as f64 * TICK;
            let mut tick_time = Duration::ZERO;
            // Players walk (and sprint every other 10 s), turning at the edges of the land.
            for player in &mut players {
                let speed = if (now / 10.0) as u64 % 2 == 1 {
                    SPRINT
                } else {
                    WALK
                };
                player.heading += (f64::from(rng.next_f32()) - 0.5) * 0.1;
                let (nx, nz) = (
                    player.x + player.heading.cos() * speed * TICK,
                    player.z + player.heading.sin() * speed * TICK,
                );
                let inside = |v: f64| (margin..f64::from(SIZE) - margin).contains(&v);
                if inside(nx) && inside(nz) {
                    (player.x, player.z) = (nx, nz);
                } else {
                    player.heading += std::f64::consts::PI * (0.5 + f64::from(rng.next_f32()));
                }
            }
            let chunk_of = |p: &Player| ((p.x as i32) >> 4, (p.z as i32) >> 4);
            let mut wanted = BTreeSet::new();
            for player in &players {
                let (cx, cz) = chunk_of(player);
                for dz in -view..=view {
                    for dx in -view..=view {
                        wanted.insert((cx + dx, cz + dz));
                    }
                }
            }
            // Unload what no player is near (one chunk of slack, so a player on a border
            // does not load and unload the same column over and over).
            let far: Vec<(i32, i32)> = world
                .loaded_columns()
                .filter(|&(cx, cz)| {
                    players.iter().all(|p| {
                        let (px, pz) = chunk_of(p);
                        (cx - px).abs() > view + 1 || (cz - pz).abs() > view + 1
                    })
                })
                .collect();
            for (cx, cz) in far {
                let at = Instant::now();
                unload_column(&mut world, &mut graph, &mut index, &mut hpa, (cx, cz))?;
                let spent = at.elapsed();
                unloads.0.push(spent);
                tick_time += spent;
            }
            let missing: Vec<(i32, i32)> = wanted
                .iter()
                .copied()
                .filter(|&(cx, cz)| !world.is_column_loaded(cx, cz))
                .take(cli.loads_per_tick as usize)
                .collect();
            for column in missing {
                let sections = read_column(&source, column.0, column.1);
                let at = Instant::now();
                load_column(
                    &mut world, &mut graph, &mut index, &mut hpa, column, &sections,
                )?;
                let spent = at.elapsed();
                loads.0.push(spent);
                tick_time += spent;
            }
            // Block edits near the players: a block placed on the surface or the surface
            // block broken; saved into the terrain too.
            edit_credit += f64::from(cli.edits * cli.players) * TICK;
            while edit_credit >= 1.0 {
                edit_credit -= 1.0;
                let player = &players[rng.below(players.len() as u64) as usize];
                let x = player.x as i32 + rng.below(33) as i32 - 16;
                let z = player.z as i32 + rng.below(33) as i32 - 16;
                if !world.is_column_loaded(x >> 4, z >> 4) {
                    continue;
                }
                let Some(feet) = surface(&world, x, z) else {
                    continue;
                };
                let (cell, block) = if rng.below(2) == 0 {
                    (feet, Block::Solid)
                } else {
                    (feet - IVec3::Y, Block::Air)
                };
                let at = Instant::now();
                edit_block(&mut world, &mut graph, &mut index, &mut hpa, cell, block)?;
                let spent = at.elapsed();
                edits.0.push(spent);
                tick_time += spent;
                source.set(cell, block).map_err(|e| e.to_string())?;
            }
            // NPCs due to re-route: one snapshot for all of them, searched on the worker.
            let due: Vec<usize> = (0..npc_count).filter(|&i| npc_due[i] <= now).collect();
            if !due.is_empty() {
                let at = Instant::now();
                let snapshot = world.snapshot();
                let spent = at.elapsed();
                snapshots.0.push(spent);
                tick_time += spent;
                for i in due {
                    npc_due[i] += REPLAN;
                    let player = &players[i / cli.npcs as usize];
                    let angle = i as f64;
                    let (sx, sz) = (
                        (player.x + angle.cos() * 40.0) as i32,
                        (player.z + angle.sin() * 40.0) as i32,
                    );
                    let (Some(start), Some(goal)) = (
                        surface(&snapshot, sx, sz),
                        surface(&snapshot, player.x as i32, player.z as i32),
                    ) else {
                        skipped_queries += 1;
                        continue;
                    };
                    jobs.send(Job {
                        snapshot: snapshot.clone(),
                        start,
                        goal,
                    })
                    .map_err(|_| "the worker stopped".to_owned())?;
                }
            }
            queries.0.extend(answer_queue.try_iter());
            ticks.0.push(tick_time);
            if tick % (5.0 / TICK) as usize == 0 || tick + 1 == tick_count {
                memory.push((
                    now,
                    world.loaded_column_count(),
                    world.heap_bytes(),
                    graph.memory_bytes(),
                    graph.node_count(),
                    index.memory_bytes(),
                ));
            }
        }
        drop(jobs);
        worker
            .join()
            .map_err(|_| "the worker panicked".to_owned())?;
        queries.0.extend(answer_queue.try_iter());

        println!(
            "{:<16} {:>8} {:>10} {:>10} {:>10}",
            "work (µs)", "count", "p50", "p99", "max"
        );
        println!("{}", loads.row("chunk load"));
        println!("{}", unloads.row("chunk unload"));
        println!("{}", edits.row("block edit"));
        println!("{}", snapshots.row("snapshot"));
        println!("{}", queries.row("query (worker)"));
        println!(
            "(loads, unloads and edits include the graph's and the reachability index's updates{}; \
             {skipped_queries} queries skipped: no feet position at the NPC or player)",
            if hpa.is_some() {
                ", and the abstraction's"
            } else {
                ""
            }
        );
        println!(
            "{:>6} {:>8} {:>12} {:>12} {:>10} {:>14} {:>12} {:>16}",
            "time s",
            "columns",
            "world B",
            "graph B",
            "nodes",
            "graph B/feet",
            "index B",
            "graph+index B/feet"
        );
        for (time, columns, world_bytes, graph_bytes, nodes, index_bytes) in &memory {
            let per_feet = |bytes: usize| bytes as f64 / (*nodes).max(1) as f64;
            println!(
                "{time:>6.0} {columns:>8} {world_bytes:>12} {graph_bytes:>12} {nodes:>10} {:>14.1} {index_bytes:>12} {:>18.1}",
                per_feet(*graph_bytes),
                per_feet(graph_bytes + index_bytes)
            );
        }

        verify(&world, &graph, &index, &source, &players, cli, &mut rng)?;
        if let Some(hpa) = &hpa {
            // The abstraction kept through every load, unload and edit against one built
            // afresh from the live graph: the same edges.
            let fresh =
                Abstraction::build(&graph, &MoveCosts::default()).map_err(|e| e.to_string())?;
            let (mut live, mut rebuilt) = (hpa.edges(&graph), fresh.edges(&graph));
            live.sort_unstable_by_key(|&(a, b, cost)| (a.to_array(), b.to_array(), cost));
            rebuilt.sort_unstable_by_key(|&(a, b, cost)| (a.to_array(), b.to_array(), cost));
            if live != rebuilt {
                return Err("the live abstraction differs from one built afresh".to_owned());
            }
            println!(
                "abstraction: {} cells, {} portals, {} bytes ({:.0}% of the graph's), {} edges \
                 equal to a fresh build's",
                hpa.cell_count(),
                hpa.portal_count(),
                hpa.memory_bytes(),
                100.0 * hpa.memory_bytes() as f64 / graph.memory_bytes().max(1) as f64,
                live.len()
            );
        }

        ticks.0.sort_unstable();
        let worst = ticks.0.last().copied().unwrap_or_default();
        let p99 = ticks.0[((ticks.0.len() as f64 - 1.0) * 0.99).round() as usize];
        println!(
            "tick budget: {:.3} ms worst tick, {:.3} ms p99 tick",
            worst.as_secs_f64() * 1e3,
            p99.as_secs_f64() * 1e3
        );
        Ok(())
    }

    /// Loads a column (its sections decoded already) and brings the graph and the index up to
    /// date: what a chunk load costs the tick. Out of line, so that
    /// `valgrind --tool=callgrind --toggle-collect='*load_column*'` counts it alone.
    #[inline(never)]
    fn load_column(
        world: &mut ChunkedWorld,
        graph: &mut NavGraph,
        index: &mut ReachIndex,
        hpa: &mut Option<Abstraction>,
        column: (i32, i32),
        sections: &Sections,
    ) -> Result<(), String> {
        insert(world, column, sections)?;
        follow(world, graph, index, hpa)
    }

    /// Unloads a column and brings the graph and the index up to date.
    #[inline(never)]
    fn unload_column(
        world: &mut ChunkedWorld,
        graph: &mut NavGraph,
        index: &mut ReachIndex,
        hpa: &mut Option<Abstraction>,
        (cx, cz): (i32, i32),
    ) -> Result<(), String> {
        world.remove_column(cx, cz);
        follow(world, graph, index, hpa)
    }

    /// Edits one block and brings the graph and the index up to date.
    #[inline(never)]
    fn edit_block(
        world: &mut ChunkedWorld,
        graph: &mut NavGraph,
        index: &mut ReachIndex,
        hpa: &mut Option<Abstraction>,
        cell: IVec3,
        block: Block,
    ) -> Result<(), String> {
        world.set(cell, block).map_err(|e| e.to_string())?;
        follow(world, graph, index, hpa)
    }

    /// The graph, the index and the abstraction (when kept) follow the world's changes,
    /// locally.
    fn follow(
        world: &mut ChunkedWorld,
        graph: &mut NavGraph,
        index: &mut ReachIndex,
        hpa: &mut Option<Abstraction>,
    ) -> Result<(), String> {
        let changes = world.take_changes();
        let update = graph
            .apply_changes(world, &changes)
            .map_err(|e| e.to_string())?;
        index
            .apply_update(world, graph, &update)
            .map_err(|e| e.to_string())?;
        match hpa {
            Some(hpa) => hpa.update(graph, &update).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// The live world, graph and index against a from-scratch build of the same loaded
    /// columns: every cell, every node and move, and the route costs of a sample of queries,
    /// where the index may prove a goal unreachable only when the search finds no route.
    fn verify(
        world: &ChunkedWorld,
        graph: &NavGraph,
        index: &ReachIndex,
        source: &ChunkedWorld,
        players: &[Player],
        cli: &Cli,
        rng: &mut SplitMix64,
    ) -> Result<(), String> {
        let at = Instant::now();
        let mut fresh = empty_world()?;
        let columns: Vec<(i32, i32)> = world.loaded_columns().collect();
        for &column in &columns {
            insert(&mut fresh, column, &read_column(source, column.0, column.1))?;
        }
        for &(cx, cz) in &columns {
            for y in 0..HEIGHT {
                for z in cz * 16..cz * 16 + 16 {
                    for x in cx * 16..cx * 16 + 16 {
                        let p = IVec3::new(x, y, z);
                        if world.get(p) != fresh.get(p) || world.terrain(p) != fresh.terrain(p) {
                            return Err(format!("cell {p} differs from a fresh build"));
                        }
                    }
                }
            }
        }
        let agent = Agent::default();
        let rebuilt = NavGraph::compile(&fresh, &agent).map_err(|e| e.to_string())?;
        if rebuilt.node_count() != graph.node_count() {
            return Err(format!(
                "the live graph has {} nodes, a fresh compile {}",
                graph.node_count(),
                rebuilt.node_count()
            ));
        }
        let costs = MoveCosts::default();
        let (mut live_moves, mut fresh_moves) = (Vec::new(), Vec::new());
        for id in rebuilt.nodes() {
            let feet = rebuilt.feet(id);
            let Some(live) = graph.node(feet) else {
                return Err(format!(
                    "feet position {feet} is missing from the live graph"
                ));
            };
            rebuilt.moves(id, &costs, &mut fresh_moves);
            graph.moves(live, &costs, &mut live_moves);
            let mut a: Vec<_> = fresh_moves
                .iter()
                .map(|m| (m.feet.to_array(), m.cost))
                .collect();
            let mut b: Vec<_> = live_moves
                .iter()
                .map(|m| (m.feet.to_array(), m.cost))
                .collect();
            a.sort_unstable();
            b.sort_unstable();
            if a != b {
                return Err(format!(
                    "the moves out of {feet} differ from a fresh compile"
                ));
            }
        }
        let mut search = GraphSearch::new(costs).map_err(|e| e.to_string())?;
        let mut pathfinder = Pathfinder::new(agent, costs).map_err(|e| e.to_string())?;
        let options = SearchOptions::default();
        let mut checked = 0;
        let mut costs_seen: BTreeMap<bool, usize> = BTreeMap::new();
        for i in 0..cli.sample as usize {
            let player = &players[i % players.len()];
            let pick = |rng: &mut SplitMix64| {
                let x = player.x as i32 + rng.below(97) as i32 - 48;
                let z = player.z as i32 + rng.below(97) as i32 - 48;
                surface(&fresh, x, z)
            };
            let (Some(start), Some(goal)) = (pick(rng), pick(rng)) else {
                continue;
            };
            let live = search
                .find_path(graph, start, goal, &options)
                .map_err(|e| e.to_string())?;
            let reference = pathfinder
                .find_path(&fresh, start, goal, &options)
                .map_err(|e| e.to_string())?;
            if (live.status, live.cost) != (reference.status, reference.cost) {
                return Err(format!(
                    "route {start} -> {goal}: live graph {:?} {:?}, fresh world {:?} {:?}",
                    live.status, live.cost, reference.status, reference.cost
                ));
            }
            let reach = index.reach(world, &agent, start, goal);
            if reach.proves_unreachable() && reference.is_found() {
                return Err(format!(
                    "route {start} -> {goal}: the live index says {reach:?}, a fresh search \
                     found a route"
                ));
            }
            if reach == voxnav::reach::Reach::Unknown {
                return Err(format!(
                    "route {start} -> {goal}: the live index does not describe the world"
                ));
            }
            *costs_seen.entry(live.is_found()).or_default() += 1;
            checked += 1;
        }
        println!(
            "check: {} loaded columns, every cell, {} graph nodes and their moves, {checked} route costs \
             ({} found, {} unreachable) equal a from-scratch build, the live index's answers sound ({:.1} s)",
            columns.len(),
            rebuilt.node_count(),
            costs_seen.get(&true).copied().unwrap_or(0),
            costs_seen.get(&false).copied().unwrap_or(0),
            at.elapsed().as_secs_f64()
        );
        Ok(())
    }
}
