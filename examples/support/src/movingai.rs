//! Running a set of Moving AI scenarios through a [`GridPlanner`] and comparing the route
//! lengths with the optimal ones: the work of `examples/movingai.rs`, also used by the
//! benches' query sets and the grid tests.

use std::time::Duration;

use voxnav::Result;
use voxnav::flat::GridPlanner;
use voxnav::flat::scenarios::check_scenarios;
use voxnav::world::Scenario;

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
    /// The summed time of the searches.
    pub search_time: Duration,
    /// The summed node expansions of the searches.
    pub expanded: u64,
}

impl BenchmarkSummary {
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

/// Runs every scenario on the planner's grid (use [`GridPlanner::octile`] for Moving AI
/// lengths) and compares each route's octile length with the optimal one.
///
/// # Errors
/// [`voxnav::Error::Parse`] naming the scenario's line when it expects a map of another size or its
/// start or goal is outside the map or blocked.
pub fn run_scenarios(
    planner: &mut GridPlanner,
    scenarios: &[Scenario],
) -> Result<BenchmarkSummary> {
    check_scenarios(planner.grid(), scenarios)?;
    let mut summary = BenchmarkSummary::default();
    for scenario in scenarios {
        let route = planner.plan(scenario.start, scenario.goal)?;
        let difference = if route.is_found() {
            (route.octile_length() - scenario.optimal_length).abs()
        } else {
            f64::INFINITY
        };
        if route.is_found() && lengths_match(route.octile_length(), scenario.optimal_length) {
            summary.passed += 1;
        } else {
            summary.failed += 1;
        }
        if summary.worst_line.is_none() || difference > summary.worst_difference {
            summary.worst_difference = difference;
            summary.worst_line = Some(scenario.line);
        }
        summary.worst_relative = summary
            .worst_relative
            .max(difference / scenario.optimal_length.max(1.0));
        summary.scenarios += 1;
        summary.search_time += route.stats.elapsed;
        summary.expanded += route.stats.expanded;
    }
    Ok(summary)
}
