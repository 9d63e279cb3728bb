//! Running a set of Moving AI scenarios through a [`GridPlanner`] and comparing the route
//! lengths with the optimal ones: the work of `examples/movingai.rs`, also used by the
//! benches' query sets and the grid tests.

use std::time::{Duration, Instant};

use pathfinding::prelude::astar;
use voxnav::engine::OCTILE_SCALE;
use voxnav::flat::scenarios::check_scenarios;
use voxnav::flat::{GridPlanner, GridRoute, IVec2};
use voxnav::world::{Grid2d, Scenario};
use voxnav::{MoveCosts, Result};

/// Two lengths agree when they differ by at most this much, relative to the optimal length
/// (or absolutely, for lengths below 1).
pub const LENGTH_TOLERANCE: f64 = 1e-4;

/// Whether `found` matches `optimal` within [`LENGTH_TOLERANCE`] relative.
#[must_use]
pub fn lengths_match(found: f64, optimal: f64) -> bool {
    (found - optimal).abs() <= LENGTH_TOLERANCE * optimal.max(1.0)
}

/// What running a set of Moving AI scenarios gave.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct BenchmarkSummary {
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios whose route length matches the optimal length ([`lengths_match`]).
    pub passed: usize,
    /// Scenarios whose route length does not match (or that found no route).
    pub failed: usize,
    /// The largest absolute difference between a route's length and the optimal length
    /// (infinite when a route was not found).
    pub worst_difference: f64,
    /// The `.scen` line of the scenario with the largest difference.
    pub worst_line: Option<usize>,
    /// The largest difference relative to the optimal length (to 1 for lengths below 1),
    /// the quantity compared with [`LENGTH_TOLERANCE`].
    pub worst_relative: f64,
    /// The time of the whole run, the clock read once before the first query and once after
    /// the last: each query's whole call, and the runner's light work per query (the same for
    /// every engine: the length read from the answer's cost, compared with the optimal one).
    pub search_time: Duration,
    /// The summed node expansions of the searches.
    pub expanded: u64,
}

impl BenchmarkSummary {
    /// Counts one scenario whose route has `length` (`None`: no route found), found with
    /// `expanded` node expansions.
    fn record(&mut self, scenario: &Scenario, length: Option<f64>, expanded: u64) {
        let difference = length.map_or(f64::INFINITY, |l| (l - scenario.optimal_length).abs());
        if length.is_some_and(|l| lengths_match(l, scenario.optimal_length)) {
            self.passed += 1;
        } else {
            self.failed += 1;
        }
        if self.worst_line.is_none() || difference > self.worst_difference {
            self.worst_difference = difference;
            self.worst_line = Some(scenario.line);
        }
        self.worst_relative = self
            .worst_relative
            .max(difference / scenario.optimal_length.max(1.0));
        self.scenarios += 1;
        self.expanded += expanded;
    }

    /// Mean node expansions per scenario (0 with no scenarios).
    #[must_use]
    pub fn expansions_per_query(&self) -> f64 {
        if self.scenarios == 0 {
            0.0
        } else {
            self.expanded as f64 / self.scenarios as f64
        }
    }

    /// The mean search time per scenario, in microseconds (0 with no scenarios).
    #[must_use]
    pub fn mean_micros(&self) -> f64 {
        if self.scenarios == 0 {
            0.0
        } else {
            self.search_time.as_secs_f64() * 1e6 / self.scenarios as f64
        }
    }

    /// Node expansions per second of search time (0 when no time was measured).
    #[must_use]
    pub fn expansions_per_second(&self) -> f64 {
        let seconds = self.search_time.as_secs_f64();
        if seconds > 0.0 {
            self.expanded as f64 / seconds
        } else {
            0.0
        }
    }
}

/// The octile length of a route of `cost` under [`MoveCosts::octile`]: what the runners
/// compare with the optimal length, for every engine alike.
fn octile_length(cost: u64) -> f64 {
    cost as f64 / f64::from(OCTILE_SCALE)
}

/// Runs every scenario on the planner's grid and compares each route's length (its cost over
/// [`OCTILE_SCALE`]: give a planner of [`GridPlanner::octile`] costs) with the optimal one.
/// The routes themselves are checked move by move by the tests (`tests/grid2d.rs`,
/// `tests/jps.rs`), not here: the runner's work per query stays light, and the same as the
/// `pathfinding` crate's runner's.
///
/// # Errors
/// [`voxnav::Error::Parse`] naming the scenario's line when it expects a map of another size or its
/// start or goal is outside the map or blocked.
pub fn run_scenarios(
    planner: &mut GridPlanner,
    scenarios: &[Scenario],
) -> Result<BenchmarkSummary> {
    check_scenarios(planner.grid(), scenarios)?;
    time_scenarios(planner, scenarios)
}

/// [`run_scenarios`] once the scenarios are checked: what its time counts (and what
/// callgrind is pointed at: `--toggle-collect='*time_scenarios*'`).
#[inline(never)]
fn time_scenarios(planner: &mut GridPlanner, scenarios: &[Scenario]) -> Result<BenchmarkSummary> {
    let mut summary = BenchmarkSummary::default();
    // One route reused, with room for any route of the grid (one through every cell): every
    // answer is written into it, and no query pays for its growth.
    let mut route = GridRoute::unreachable();
    let longest = planner.grid().width() as usize * planner.grid().height() as usize;
    route.cells.reserve(longest);
    route.actions.reserve(longest);
    // Timed from outside, as the crate's searches are: the whole answers, their cells and
    // actions included. One clock read per run, not per query: a read costs as much as a
    // short query's search.
    let started = Instant::now();
    for scenario in scenarios {
        planner.plan_into(scenario.start, scenario.goal, &mut route)?;
        let length = route.cost.filter(|_| route.is_found()).map(octile_length);
        summary.record(scenario, length, route.stats.expanded);
    }
    summary.search_time = started.elapsed();
    Ok(summary)
}

/// Runs every scenario through the `pathfinding` crate's `astar` on `grid` directly (8
/// neighbours without corner cutting, [`MoveCosts::octile`](voxnav::MoveCosts::octile)
/// costs, the octile estimate), the baseline the flat-world engines are compared with:
/// no voxel world in between, so the crate's own speed is what is measured. `expanded`
/// counts the crate's calls for successors.
///
/// # Errors
/// As [`run_scenarios`].
pub fn run_crate_scenarios(grid: &Grid2d, scenarios: &[Scenario]) -> Result<BenchmarkSummary> {
    check_scenarios(grid, scenarios)?;
    Ok(time_crate_scenarios(grid, scenarios))
}

/// [`run_crate_scenarios`] once the scenarios are checked: what its time counts
/// (`--toggle-collect='*time_crate_scenarios*'` for callgrind).
#[inline(never)]
fn time_crate_scenarios(grid: &Grid2d, scenarios: &[Scenario]) -> BenchmarkSummary {
    let costs = MoveCosts::octile();
    let (straight, diagonal) = (u64::from(costs.straight), u64::from(costs.diagonal));
    let free = |x: i32, y: i32| grid.is_free(IVec2::new(x, y));
    let mut summary = BenchmarkSummary::default();
    let started = Instant::now();
    for scenario in scenarios {
        let goal = (scenario.goal.x, scenario.goal.y);
        let mut expanded = 0u64;
        let found = astar(
            &(scenario.start.x, scenario.start.y),
            |&(x, y)| {
                expanded += 1;
                // A fixed array rather than a fresh Vec: no allocation per expansion.
                let mut out = [((0, 0), 0u64); 8];
                let mut count = 0;
                for dx in -1..=1 {
                    for dy in -1..=1 {
                        let legal = (dx, dy) != (0, 0)
                            && free(x + dx, y + dy)
                            && (dx == 0 || dy == 0 || (free(x + dx, y) && free(x, y + dy)));
                        if legal {
                            let cost = if dx != 0 && dy != 0 {
                                diagonal
                            } else {
                                straight
                            };
                            out[count] = ((x + dx, y + dy), cost);
                            count += 1;
                        }
                    }
                }
                out.into_iter().take(count)
            },
            |&(x, y)| {
                let (across, along) = ((x - goal.0).unsigned_abs(), (y - goal.1).unsigned_abs());
                let (low, high) = (u64::from(across.min(along)), u64::from(across.max(along)));
                low * diagonal + (high - low) * straight
            },
            |&cell| cell == goal,
        );
        let length = found.map(|(_, cost)| octile_length(cost));
        summary.record(scenario, length, expanded);
    }
    summary.search_time = started.elapsed();
    summary
}
