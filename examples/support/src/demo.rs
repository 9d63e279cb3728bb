//! The main example's work: generate a world, route a batch of NPCs across it, and draw
//! what the searches did. `examples/terrain.rs` parses the options, prints
//! [`DemoReport::table`] and [`DemoReport::explanation`] and writes [`DemoReport::map`] as a
//! PNG.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use voxnav::engine::Pathfinder;
use voxnav::graph::{GraphMove, NavGraph, NodeId};
use voxnav::terrain::{Terrain, TerrainConfig, generate_terrain_with_heights, pick_pairs};
use voxnav::{Agent, Error, IVec3, MoveCosts, Result, SearchOptions, SearchStatus};

use super::map::{MapRoute, TopDownMap};

/// Candidate pairs drawn per routed pair, of which the first on open ground is kept.
pub const CANDIDATES: usize = 16;

/// What [`run_demo`] does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DemoConfig {
    /// The world. Defaults to [`TerrainConfig::default`] (512 x 128 x 512, seed 1337).
    pub terrain: TerrainConfig,
    /// How many start/goal pairs to route. Defaults to 24.
    pub pairs: usize,
    /// The shortest horizontal start/goal distance, in blocks. Defaults to 16.
    pub min_distance: f32,
    /// The longest horizontal start/goal distance, in blocks; capped at 80% of the world's
    /// smaller side. Defaults to 400.
    pub max_distance: f32,
    /// The node budget of each search, so that nothing hangs. Defaults to 2 000 000.
    pub max_nodes: u64,
}

impl Default for DemoConfig {
    fn default() -> Self {
        Self {
            terrain: TerrainConfig::default(),
            pairs: 24,
            min_distance: 16.0,
            max_distance: 400.0,
            max_nodes: 2_000_000,
        }
    }
}

impl DemoConfig {
    /// Sets [`DemoConfig::terrain`]. Defaults to [`TerrainConfig::default`].
    #[must_use]
    pub const fn with_terrain(mut self, terrain: TerrainConfig) -> Self {
        self.terrain = terrain;
        self
    }

    /// Sets [`DemoConfig::pairs`]. Defaults to 24.
    #[must_use]
    pub const fn with_pairs(mut self, pairs: usize) -> Self {
        self.pairs = pairs;
        self
    }

    /// Sets [`DemoConfig::min_distance`] and [`DemoConfig::max_distance`]. Defaults to 16
    /// and 400.
    #[must_use]
    pub const fn with_distances(mut self, min_distance: f32, max_distance: f32) -> Self {
        self.min_distance = min_distance;
        self.max_distance = max_distance;
        self
    }

    /// Sets [`DemoConfig::max_nodes`]. Defaults to 2 000 000.
    #[must_use]
    pub const fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = max_nodes;
        self
    }

    /// The longest distance the world offers: `max_distance`, capped at 80% of the world's
    /// smaller side.
    #[must_use]
    pub fn distance_cap(&self) -> f32 {
        let smaller_side = self.terrain.size_x.min(self.terrain.size_z) as f32;
        self.max_distance.min(0.8 * smaller_side)
    }

    /// The target distance of pair `index`: from `min_distance` to the (capped)
    /// `max_distance`, spread quadratically so short trips, the common case for NPCs, are
    /// the majority. Exact arithmetic only, so every machine picks the same pairs.
    fn distance(&self, index: usize) -> f32 {
        let far = self.distance_cap();
        let near = self.min_distance.min(far);
        let t = if self.pairs > 1 {
            index as f32 / (self.pairs - 1) as f32
        } else {
            0.0
        };
        near + (far - near) * t * t
    }
}

/// One routed pair: a row of the example's table.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteRow {
    /// The pair's number, from 1, as the picture labels its ends.
    pub number: usize,
    /// The start feet position.
    pub start: IVec3,
    /// The goal feet position.
    pub goal: IVec3,
    /// The horizontal distance from start to goal, in blocks.
    pub distance: f32,
    /// How the search ended.
    pub status: SearchStatus,
    /// The route's cost (`None` when unreachable).
    pub cost: Option<u64>,
    /// The number of feet positions on the route (0 when unreachable).
    pub path_len: usize,
    /// The route's horizontal length in blocks (a diagonal step is sqrt 2 long).
    pub walked: f32,
    /// Nodes the search expanded.
    pub expanded: u64,
    /// The search's wall-clock time.
    pub elapsed: Duration,
}

impl RouteRow {
    /// Expansions per second of this search (0 when it took no measurable time).
    #[must_use]
    pub fn expansions_per_second(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.expanded as f64 / seconds
        } else {
            0.0
        }
    }

    /// How much longer the walked route is than the straight line (1 for a straight walk;
    /// 0 when no route was found).
    #[must_use]
    pub fn detour(&self) -> f32 {
        if self.path_len == 0 {
            0.0
        } else {
            self.walked / self.distance.max(1.0)
        }
    }
}

/// What [`run_demo`] did.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// One row per routed pair, shortest first.
    pub rows: Vec<RouteRow>,
    /// The target distances of the pairs that were asked for but not routed, because none
    /// of [`CANDIDATES`] candidate pairs at that distance had both ends on open ground of
    /// the mainland (the one region where every position reaches every other).
    pub skipped: Vec<f32>,
    /// The longest distance the world offers ([`DemoConfig::distance_cap`]).
    pub distance_cap: f32,
    /// How long generating the world took.
    pub generation: Duration,
    /// The world seen from above, with the columns the searches expanded tinted and every
    /// route drawn.
    pub map: TopDownMap,
    /// Columns of the world that hold at least one expanded node.
    pub explored_columns: usize,
    /// All columns of the world.
    pub total_columns: usize,
}

impl DemoReport {
    /// The number of rows with each status: `(found, partial, unreachable)`.
    #[must_use]
    pub fn counts(&self) -> (usize, usize, usize) {
        let count = |status| self.rows.iter().filter(|r| r.status == status).count();
        (
            count(SearchStatus::Found),
            count(SearchStatus::Partial),
            count(SearchStatus::Unreachable),
        )
    }

    /// The summary line, for example `routed 24 pairs: 24 found, 0 partial, 0 unreachable;
    /// 1234567 expansions in 456.7 ms (2.7 M expansions/s)`.
    #[must_use]
    pub fn summary(&self) -> String {
        let (found, partial, unreachable) = self.counts();
        let expanded: u64 = self.rows.iter().map(|r| r.expanded).sum();
        let elapsed: Duration = self.rows.iter().map(|r| r.elapsed).sum();
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 {
            expanded as f64 / seconds / 1e6
        } else {
            0.0
        };
        format!(
            "routed {} pairs: {found} found, {partial} partial, {unreachable} unreachable; \
             {expanded} expansions in {:.1} ms ({rate:.1} M expansions/s)",
            self.rows.len(),
            seconds * 1e3,
        )
    }

    /// When fewer pairs were routed than asked for: how many, and why. `None` otherwise.
    #[must_use]
    pub fn skipped_note(&self) -> Option<String> {
        let (first, last) = (self.skipped.first()?, self.skipped.last()?);
        let asked = self.rows.len() + self.skipped.len();
        let range = if (last - first).abs() < 0.05 {
            format!("{first:.1} blocks")
        } else {
            format!("{first:.1} to {last:.1} blocks")
        };
        Some(format!(
            "routed {} of the {asked} pairs asked for: for {} of the target distances \
             ({range}) none of {CANDIDATES} candidate pairs had both ends on open ground of the \
             mainland, the one region where every position can reach every other (distances \
             are capped at {:.1} blocks, 80% of this world's side); a larger --size offers more",
            self.rows.len(),
            self.skipped.len(),
            self.distance_cap,
        ))
    }

    /// The table: a header and one line per pair (number, distance, status, cost, walked
    /// length and detour, nodes expanded, microseconds, expansions per second).
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:>3} {:>8} {:>11} {:>7} {:>7} {:>6} {:>9} {:>9} {:>10}\n",
            "#", "distance", "status", "cost", "walked", "detour", "expanded", "micros", "exp/s"
        );
        for row in &self.rows {
            let cost = row.cost.map_or_else(|| "-".to_owned(), |c| c.to_string());
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "{:>3} {:>8.1} {:>11} {:>7} {:>7.1} {:>5.1}x {:>9} {:>9} {:>10}",
                row.number,
                row.distance,
                row.status.as_str(),
                cost,
                row.walked,
                row.detour(),
                row.expanded,
                row.elapsed.as_micros(),
                format_rate(row.expansions_per_second()),
            );
        }
        out
    }

    /// What the figures mean, for a person reading the table, with this run's most and least
    /// costly trips (for their distance) as the examples.
    #[must_use]
    pub fn explanation(&self) -> String {
        let mut out = String::from(
            "How to read it: # is the pair's number in the picture (a disc at its start, a \
             square at its goal). distance is the straight line from start to goal, walked the \
             route's length in blocks, detour the ratio of the two. expanded counts the \
             positions A* examined to prove its route the cheapest: on open ground little more \
             than the route itself, but when a lake, a cliff or a plateau blocks the straight \
             line it first examines every position that looked closer than the way round, so \
             a short trip with a detour can cost thousands of expansions.\n",
        );
        let effort = |row: &&RouteRow| row.expanded as f64 / f64::from(row.distance.max(1.0));
        let found = || self.rows.iter().filter(|r| r.status == SearchStatus::Found);
        if let (Some(most), Some(least)) = (
            found().max_by(|a, b| effort(a).total_cmp(&effort(b))),
            found().min_by(|a, b| effort(a).total_cmp(&effort(b))),
        ) && most.number != least.number
        {
            let _ = writeln!(
                out,
                "In this run: #{} is {:.0} blocks apart, walked {:.0} ({:.1}x) and examined {} \
                 positions ({:.0} per block of distance); #{}, {:.0} blocks apart, walked {:.0} \
                 ({:.1}x) and examined {} ({:.0} per block).",
                most.number,
                most.distance,
                most.walked,
                most.detour(),
                most.expanded,
                effort(&most),
                least.number,
                least.distance,
                least.walked,
                least.detour(),
                least.expanded,
                effort(&least),
            );
        }
        out
    }
}

fn format_rate(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else {
        format!("{:.0} k", rate / 1e3)
    }
}

/// The horizontal length of a route, in blocks (a diagonal step is sqrt 2 long).
fn walked(path: &[IVec3]) -> f32 {
    path.windows(2)
        .map(|pair| {
            let step = pair[1] - pair[0];
            ((step.x * step.x + step.z * step.z) as f32).sqrt()
        })
        .sum()
}

/// Generates `config.terrain`, routes `config.pairs` start/goal pairs on its surface (the
/// default agent and costs, the default admissible heuristic, a node budget), and draws
/// the map ([`TopDownMap`]). Maps of worlds up to 256 blocks wide are drawn at 2 pixels
/// per block.
///
/// Pairs whose distance the world cannot offer are skipped and listed in
/// [`DemoReport::skipped`], so a small world may route fewer than asked.
///
/// # Errors
/// [`Error::InvalidSetting`] when the terrain config is invalid, [`Error::ZeroBudget`]
/// when `max_nodes` is zero, [`Error::GraphTooLarge`] for a world too large for its walk
/// graph (more than 4096 x 4096 columns).
pub fn run_demo(config: &DemoConfig) -> Result<DemoReport> {
    if config.max_nodes == 0 {
        return Err(Error::ZeroBudget);
    }
    let started = Instant::now();
    let terrain = generate_terrain_with_heights(&config.terrain)?;
    let generation = started.elapsed();

    let agent = Agent::default();
    let mut pathfinder = Pathfinder::new(agent, MoveCosts::default())?;
    let options = SearchOptions::default().with_max_nodes(config.max_nodes);
    let scale = if config.terrain.size_x.max(config.terrain.size_z) <= 256 {
        2
    } else {
        1
    };
    let mut map = TopDownMap::new(&terrain, scale);
    let size = terrain.size();
    let mainland = Mainland::find(&terrain, &agent, config.terrain.seed)?;
    let mut rows = Vec::with_capacity(config.pairs);
    let mut skipped = Vec::new();
    for index in 0..config.pairs {
        let distance = config.distance(index);
        let seed = config.terrain.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // NPCs start and stop on open ground of the mainland, not on tree tops, in closed
        // caves or on plateaus walled in by cliffs: a search between two regions explores
        // all of one of them and would hide every other search on the map.
        let Some((start, goal)) = pick_pairs(
            &terrain,
            &agent,
            seed,
            CANDIDATES,
            0.95 * distance..=distance,
        )
        .into_iter()
        .find(|&(start, goal)| {
            terrain.is_on_open_ground(start)
                && terrain.is_on_open_ground(goal)
                && mainland.contains(start)
                && mainland.contains(goal)
        }) else {
            skipped.push(distance);
            continue;
        };
        let result = pathfinder.find_path(&terrain, start, goal, &options)?;
        map.add_explored(pathfinder.explored());
        let (dx, dz) = ((goal.x - start.x) as f32, (goal.z - start.z) as f32);
        let number = rows.len() + 1;
        rows.push(RouteRow {
            number,
            start,
            goal,
            distance: (dx * dx + dz * dz).sqrt(),
            status: result.status,
            cost: result.cost,
            path_len: result.path.len(),
            walked: walked(&result.path),
            expanded: result.stats.expanded,
            elapsed: result.stats.elapsed,
        });
        map.add_route(MapRoute {
            number,
            start,
            goal,
            path: result.path,
        });
    }
    Ok(DemoReport {
        rows,
        skipped,
        distance_cap: config.distance_cap(),
        generation,
        explored_columns: map.explored_columns(),
        total_columns: size.x as usize * size.z as usize,
        map,
    })
}

/// A region of feet positions that can all reach one another under the walking rules (a
/// strongly connected component: drops are one-way, so "reachable from the same place" is
/// not enough), found over the terrain's compiled walk graph.
struct Mainland {
    graph: NavGraph,
    /// Per node id: whether it is in the region.
    reached: Vec<bool>,
}

impl Mainland {
    /// The first region found that covers at least a quarter of the world's columns (or
    /// the largest of a few tries), grown from random open-ground positions.
    fn find(terrain: &Terrain, agent: &Agent, seed: u64) -> Result<Self> {
        let graph = NavGraph::compile(terrain, agent)?;
        let size = terrain.size();
        let columns = size.x as usize * size.z as usize;
        let mut best = vec![false; graph.id_bound()];
        let mut best_count = 0;
        for (start, _) in pick_pairs(terrain, agent, seed ^ 0x6d61_696e, 8, 0.0..=0.0) {
            let Some(id) = graph.node(start) else {
                continue;
            };
            if !terrain.is_on_open_ground(start) || best[id as usize] {
                continue;
            }
            let mut region = flood(&graph, id, false);
            let backward = flood(&graph, id, true);
            for (here, back) in region.iter_mut().zip(&backward) {
                *here &= *back;
            }
            let count = region.iter().filter(|&&r| r).count();
            if count > best_count {
                (best, best_count) = (region, count);
            }
            if best_count * 4 >= columns {
                break;
            }
        }
        Ok(Self {
            graph,
            reached: best,
        })
    }

    fn contains(&self, p: IVec3) -> bool {
        self.graph
            .node(p)
            .is_some_and(|id| self.reached[id as usize])
    }
}

/// Every node reachable from `start` over the graph's moves or, `backward`, that can reach
/// `start`.
fn flood(graph: &NavGraph, start: NodeId, backward: bool) -> Vec<bool> {
    let costs = MoveCosts::default();
    let mut reached = vec![false; graph.id_bound()];
    let mut stack = vec![start];
    reached[start as usize] = true;
    while let Some(node) = stack.pop() {
        let mut visit = |step: GraphMove| {
            if !reached[step.node as usize] {
                reached[step.node as usize] = true;
                stack.push(step.node);
            }
        };
        if backward {
            graph.for_each_incoming(node, &costs, &mut visit);
        } else {
            graph.for_each_move(node, &costs, &mut visit);
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::super::map::route_colour;
    use super::*;

    /// A 48-block cube routes or skips each of three pairs (the former doc example: doc
    /// tests do not run in a module of the examples).
    #[test]
    fn a_small_world_routes_or_skips_every_pair() {
        let config = DemoConfig::default()
            .with_terrain(TerrainConfig::default().with_size(48, 48, 48))
            .with_pairs(3);
        let report = run_demo(&config).unwrap();
        assert_eq!(report.rows.len() + report.skipped.len(), 3);
        assert!(!report.summary().is_empty());
    }

    #[test]
    fn the_main_example_runs_on_a_small_world_and_draws_its_routes() {
        let config = DemoConfig::default()
            .with_terrain(TerrainConfig::default().with_seed(3).with_size(96, 128, 96))
            .with_pairs(6)
            .with_max_nodes(200_000);
        let report = run_demo(&config).unwrap();
        assert_eq!(report.rows.len(), 6);
        assert!(report.skipped.is_empty() && report.skipped_note().is_none());
        let (found, partial, unreachable) = report.counts();
        assert_eq!(found + partial + unreachable, 6);
        assert_eq!(
            found,
            6,
            "pairs on the mainland are reachable: {}",
            report.summary()
        );
        assert!(report.summary().starts_with("routed 6 pairs: "));
        assert_eq!(report.table().lines().count(), 7);
        assert!(report.explanation().contains("In this run: #"));
        // Distances grow from 16 towards 80% of the world's side.
        assert!(report.rows[0].distance <= 16.0 && report.rows[0].distance >= 15.0);
        assert!(report.rows[5].distance > 60.0);
        for row in &report.rows {
            assert!(
                row.detour() >= 0.99,
                "a route is never shorter than the straight line"
            );
        }
        let picture = report.map.render();
        assert_eq!((picture.width(), picture.height()), (192, 192));
        let pixels: Vec<[u8; 3]> = picture
            .pixels()
            .chunks_exact(3)
            .map(|p| [p[0], p[1], p[2]])
            .collect();
        let route_pixels = pixels
            .iter()
            .filter(|&&p| (1..=6).any(|n| p == route_colour(n)))
            .count();
        assert!(
            route_pixels >= 4 * 20,
            "routes are drawn ({route_pixels} pixels)"
        );
        assert!(report.explored_columns > 0 && report.explored_columns < report.total_columns);
        // The same config gives the same routes.
        let again = run_demo(&config).unwrap();
        let key = |r: &RouteRow| (r.start, r.goal, r.cost, r.expanded);
        assert_eq!(
            report.rows.iter().map(key).collect::<Vec<_>>(),
            again.rows.iter().map(key).collect::<Vec<_>>()
        );
    }

    #[test]
    fn a_world_too_small_for_the_pairs_says_how_many_it_routed_and_why() {
        let config = DemoConfig::default()
            .with_terrain(TerrainConfig::default().with_seed(1).with_size(32, 128, 32))
            .with_pairs(30);
        let report = run_demo(&config).unwrap();
        assert_eq!(report.rows.len() + report.skipped.len(), 30);
        assert!(!report.skipped.is_empty());
        let note = report.skipped_note().unwrap();
        assert!(
            note.starts_with(&format!(
                "routed {} of the 30 pairs asked for",
                report.rows.len()
            )),
            "{note}"
        );
        assert!(note.contains("capped at 25.6 blocks"), "{note}");
    }
}
