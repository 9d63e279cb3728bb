//! The main example's work, as a library function: generate a world, route a batch of NPCs
//! across it, and draw what the search did. `examples/terrain.rs` is a thin wrapper that
//! parses options, prints [`DemoReport::table`] and writes [`DemoReport::map`] as a PNG.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use glam::IVec3;

use super::map::{GOAL_COLOUR, START_COLOUR, TopDownMap};
use super::{Terrain, TerrainConfig, generate_terrain_with_heights, pick_pairs};
use crate::error::Result;
use crate::moves::agent::{Agent, MoveCosts};
use crate::moves::{DIRECTIONS, move_in_direction};
use crate::search::{Pathfinder, SearchOptions, SearchStatus};
use crate::world::{Bounds, is_valid_feet};

/// Candidate pairs drawn per routed pair, of which the first on open ground is kept.
const CANDIDATES: usize = 16;

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

    /// The target distance of pair `index`: from `min_distance` to the (capped)
    /// `max_distance`, spread quadratically so short trips, the common case for NPCs, are
    /// the majority. Exact arithmetic only, so every machine picks the same pairs.
    fn distance(&self, index: usize) -> f32 {
        let smaller_side = self.terrain.size_x.min(self.terrain.size_z) as f32;
        let far = self.max_distance.min(0.8 * smaller_side);
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
}

/// What [`run_demo`] did.
#[derive(Debug, Clone)]
pub struct DemoReport {
    /// One row per routed pair, shortest first.
    pub rows: Vec<RouteRow>,
    /// How long generating the world took.
    pub generation: Duration,
    /// The world seen from above, with each search's expanded cells tinted and each route
    /// drawn.
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

    /// The table: a header and one line per pair (distance, status, cost, path length,
    /// nodes expanded, microseconds, expansions per second).
    #[must_use]
    pub fn table(&self) -> String {
        let mut out = format!(
            "{:>8} {:>11} {:>7} {:>6} {:>9} {:>9} {:>10}\n",
            "distance", "status", "cost", "length", "expanded", "micros", "exp/s"
        );
        for row in &self.rows {
            let cost = row.cost.map_or_else(|| "-".to_owned(), |c| c.to_string());
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "{:>8.1} {:>11} {:>7} {:>6} {:>9} {:>9} {:>10}",
                row.distance,
                row.status.as_str(),
                cost,
                row.path_len,
                row.expanded,
                row.elapsed.as_micros(),
                format_rate(row.expansions_per_second()),
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

/// Generates `config.terrain`, routes `config.pairs` start/goal pairs on its surface (the
/// default agent and costs, the default admissible heuristic, a node budget), and draws
/// the map: terrain shaded by height, the cells each search expanded tinted, every route
/// drawn with its start and goal marked. Maps of worlds up to 256 blocks wide are drawn at
/// 2 pixels per block.
///
/// Pairs whose distance the world cannot offer are skipped, so a tiny world may route fewer
/// than asked.
///
/// ```
/// use voxnav::terrain::TerrainConfig;
/// use voxnav::terrain::demo::{DemoConfig, run_demo};
///
/// let config = DemoConfig::default()
///     .with_terrain(TerrainConfig::default().with_size(48, 48, 48))
///     .with_pairs(3);
/// let report = run_demo(&config)?;
/// assert_eq!(report.rows.len(), 3);
/// println!("{}", report.summary());
/// # Ok::<(), voxnav::Error>(())
/// ```
///
/// # Errors
/// [`crate::Error::InvalidSetting`] when the terrain config is invalid,
/// [`crate::Error::ZeroBudget`] when `max_nodes` is zero.
pub fn run_demo(config: &DemoConfig) -> Result<DemoReport> {
    if config.max_nodes == 0 {
        return Err(crate::Error::ZeroBudget);
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
    let total_columns = size.x as usize * size.z as usize;
    let mut explored = vec![false; total_columns];
    let mainland = Mainland::find(&terrain, &agent, config.terrain.seed);
    let mut rows = Vec::with_capacity(config.pairs);
    let mut routes = Vec::with_capacity(config.pairs);
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
            continue;
        };
        let result = pathfinder.find_path(&terrain, start, goal, &options)?;
        let cells: Vec<IVec3> = pathfinder.explored().collect();
        for cell in &cells {
            explored[(cell.z * size.x + cell.x) as usize] = true;
        }
        map.tint_explored(cells);
        let (dx, dz) = ((goal.x - start.x) as f32, (goal.z - start.z) as f32);
        rows.push(RouteRow {
            start,
            goal,
            distance: (dx * dx + dz * dz).sqrt(),
            status: result.status,
            cost: result.cost,
            path_len: result.path.len(),
            expanded: result.stats.expanded,
            elapsed: result.stats.elapsed,
        });
        routes.push((start, goal, result.path));
    }
    // Routes go over every tint, so a later search's tint never hides an earlier route.
    for (start, goal, path) in &routes {
        map.draw_path(path);
        map.mark(*start, START_COLOUR);
        map.mark(*goal, GOAL_COLOUR);
    }
    Ok(DemoReport {
        rows,
        generation,
        map,
        explored_columns: explored.iter().filter(|&&e| e).count(),
        total_columns,
    })
}

/// A region of feet positions that can all reach one another under the walking rules (a
/// strongly connected component: drops are one-way, so "reachable from the same place" is
/// not enough).
struct Mainland {
    size: IVec3,
    reached: Vec<u64>,
}

impl Mainland {
    /// The first region found that covers at least a quarter of the world's columns (or
    /// the largest of a few tries), grown from random open-ground positions.
    fn find(terrain: &Terrain, agent: &Agent, seed: u64) -> Self {
        let size = terrain.size();
        let columns = size.x as usize * size.z as usize;
        let mut best = Self::empty(size);
        let mut best_count = 0;
        for (start, _) in pick_pairs(terrain, agent, seed ^ 0x6d61_696e, 8, 0.0..=0.0) {
            if !terrain.is_on_open_ground(start) || best.contains(start) {
                continue;
            }
            let mut region = Self::flood(terrain, agent, start, false);
            let backward = Self::flood(terrain, agent, start, true);
            for (word, back) in region.reached.iter_mut().zip(&backward.reached) {
                *word &= back;
            }
            let count = region.reached.iter().map(|w| w.count_ones() as usize).sum();
            if count > best_count {
                (best, best_count) = (region, count);
            }
            if best_count * 4 >= columns {
                break;
            }
        }
        best
    }

    fn empty(size: IVec3) -> Self {
        let cells = size.x as usize * size.y as usize * size.z as usize;
        Self {
            size,
            reached: vec![0; cells.div_ceil(64)],
        }
    }

    fn index(&self, p: IVec3) -> Option<usize> {
        Bounds::from_size(self.size)
            .contains(p)
            .then(|| ((p.y * self.size.z + p.z) * self.size.x + p.x) as usize)
    }

    fn contains(&self, p: IVec3) -> bool {
        self.index(p)
            .is_some_and(|i| self.reached[i / 64] & (1 << (i % 64)) != 0)
    }

    /// Marks `p`; returns whether it was new.
    fn insert(&mut self, p: IVec3) -> bool {
        let Some(i) = self.index(p) else {
            return false;
        };
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let new = self.reached[word] & bit == 0;
        self.reached[word] |= bit;
        new
    }

    /// Every feet position reachable from `start` or, `backward`, that can reach `start`.
    fn flood(terrain: &Terrain, agent: &Agent, start: IVec3, backward: bool) -> Self {
        let mut region = Self::empty(terrain.size());
        let costs = MoveCosts::default();
        let mut stack = vec![start];
        let mut next = Vec::with_capacity(8);
        region.insert(start);
        while let Some(feet) = stack.pop() {
            next.clear();
            if backward {
                predecessors(terrain, agent, &costs, feet, &mut next);
            } else {
                next.extend(
                    DIRECTIONS
                        .iter()
                        .filter_map(|&d| move_in_direction(terrain, agent, &costs, feet, d))
                        .map(|m| m.feet),
                );
            }
            for &p in &next {
                if region.insert(p) {
                    stack.push(p);
                }
            }
        }
        region
    }
}

/// The feet positions with a move to `feet`: a level walk, a drop or a step up ends there
/// only from a neighbouring column between `max_step_up` below and `max_drop` above.
fn predecessors(
    terrain: &Terrain,
    agent: &Agent,
    costs: &MoveCosts,
    feet: IVec3,
    out: &mut Vec<IVec3>,
) {
    let (below, above) = (agent.max_step_up as i32, agent.max_drop as i32);
    for &direction in &DIRECTIONS {
        for dy in -below..=above {
            let from = feet - direction + IVec3::new(0, dy, 0);
            if is_valid_feet(terrain, from, agent.height)
                && move_in_direction(terrain, agent, costs, from, direction)
                    .is_some_and(|m| m.feet == feet)
            {
                out.push(from);
            }
        }
    }
}
