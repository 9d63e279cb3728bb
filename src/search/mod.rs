//! The A* search: options, results, goals and the reusable [`Pathfinder`].
//!
//! ## The one search core
//!
//! Every A* in the crate is one loop, `search::core::run`, generic over two things and sharing
//! everything else:
//!
//! - a **move source** (`MoveSource`) says where a node's successors come from, chosen once
//!   per search: the walking rules read from the world on the fly and the flying and swimming
//!   rules (26 neighbours, box rule), both in `search::rules`; the compiled walk graph
//!   ([`crate::graph::NavGraph`]: moves decoded from per-node codes, less the detours the
//!   parent dominates); and the same graph read backwards over incoming moves (the chase
//!   field's Dijkstra and the replanner's first plan, `GraphSearch::search_backward`). A source
//!   hands each successor to the loop as its place in the table, how it lands (`Landing`: the
//!   loop works the position out only for a successor it keeps), the move's cost and what
//!   its record keeps of the move; it owns whatever it caches per node (a flier's arrival
//!   code lives in its record, the nodes a backward plan expanded in its list).
//! - a **record table** (`RecordTable`) says where node state lives (best cost, how the node
//!   was reached, closed or open) and decides whether an offered route is taken: records kept
//!   where their cells lie (`search::cells`, fliers and swimmers), a table of packed positions
//!   (`search::nodes`, walkers, unbounded worlds included), or flat arrays indexed by graph
//!   node id with generation stamps (every engine over the compiled graph). Nodes are `u32`
//!   numbers the table gives out.
//!
//! Shared by all: one [`Goal`] trait (a graph search turns a goal whose
//! [`Goal::block_target`] is set into a goal in the graph's own coordinates), one
//! [`Estimator`](heuristic::Estimator) built once per search from the [`SearchOptions`]'
//! heuristic, with one octile formula (`heuristic::Octile`), one `Budget` check before each
//! expansion, one open set (the monotone integer queue of `search::open`), and one place that
//! builds a [`SearchResult`] (`Ended::finish`: found, partial with the best node by the
//! heuristic, or unreachable). A new engine is a new source or a new table, not a new loop.
//!
//! Outside the loop on purpose: the naive baseline of the benchmarks (`examples/support`), the
//! reference the speed figures compare against; D* Lite (`replan::dstar`), whose queue keys
//! and `rhs` values are another algorithm, not A*; and the jump point searches, whose move
//! source is still to be written.

mod astar;
mod cell_records;
pub(crate) mod cells;
pub(crate) mod core;
mod goal;
pub mod heuristic;
pub mod jps3d;
pub(crate) mod nodes;
pub(crate) mod open;
pub(crate) mod pages;
pub(crate) mod prefetch;
mod rules;

use std::time::{Duration, Instant};

use glam::IVec3;

pub use astar::Pathfinder;
pub use goal::{AnyOfGoal, AwayFromGoal, BlockGoal, ColumnGoal, Goal, RadiusGoal};

use crate::search::heuristic::Heuristic;

/// Limits and heuristic for one search.
///
/// ```
/// use std::time::{Duration, Instant};
/// use voxnav::SearchOptions;
/// let options = SearchOptions::default()
///     .with_max_nodes(50_000)
///     .with_max_time(Duration::from_millis(5));
/// assert_eq!(options.max_nodes, Some(50_000));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SearchOptions {
    /// The most nodes the search may expand before it returns the best partial route.
    /// Deterministic, so the budget to use in tests. Defaults to `None` (no limit: a bounded
    /// world bounds the search; an unbounded world needs a node or time budget).
    pub max_nodes: Option<u64>,
    /// The most wall-clock time the search may take before it returns the best partial
    /// route. Checked every few hundred expansions. A limit too far away for the clock to
    /// represent (such as [`Duration::MAX`]) is no limit. Defaults to `None`.
    pub max_time: Option<Duration>,
    /// The heuristic. Defaults to the admissible octile + height heuristic.
    pub heuristic: Heuristic,
}

impl SearchOptions {
    /// Sets [`SearchOptions::max_nodes`].
    #[must_use]
    pub const fn with_max_nodes(mut self, max_nodes: u64) -> Self {
        self.max_nodes = Some(max_nodes);
        self
    }

    /// Sets [`SearchOptions::max_time`].
    #[must_use]
    pub const fn with_max_time(mut self, max_time: Duration) -> Self {
        self.max_time = Some(max_time);
        self
    }

    /// The instant at which a search started at `started` must stop: `None` when there is no
    /// time limit or the limit lies beyond what [`Instant`] can represent.
    #[must_use]
    pub fn deadline(&self, started: Instant) -> Option<Instant> {
        self.max_time.and_then(|limit| started.checked_add(limit))
    }

    /// Checks the budgets before a search: neither may be zero, and a world without bounds
    /// (`bounded` false) needs one of them, or a search toward an unreachable goal would never
    /// end.
    ///
    /// # Errors
    /// [`Error::ZeroBudget`](crate::Error::ZeroBudget),
    /// [`Error::ZeroTimeBudget`](crate::Error::ZeroTimeBudget) or
    /// [`Error::Unbounded`](crate::Error::Unbounded).
    pub fn check_budgets(&self, bounded: bool) -> crate::error::Result<()> {
        if self.max_nodes == Some(0) {
            return Err(crate::error::Error::ZeroBudget);
        }
        if self.max_time.is_some_and(|t| t.is_zero()) {
            return Err(crate::error::Error::ZeroTimeBudget);
        }
        if !bounded && self.max_nodes.is_none() && self.max_time.is_none() {
            return Err(crate::error::Error::Unbounded);
        }
        Ok(())
    }

    /// Sets [`SearchOptions::heuristic`].
    #[must_use]
    pub const fn with_heuristic(mut self, heuristic: Heuristic) -> Self {
        self.heuristic = heuristic;
        self
    }
}

/// How often a search looks at the clock: every this many expansions.
const CLOCK_INTERVAL: u64 = 256;

/// The node and time budgets of one search, read once from its [`SearchOptions`]; every
/// engine checks them the same way before each expansion.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    max_nodes: u64,
    deadline: Option<Instant>,
}

impl Budget {
    /// The budgets of `options` for a search that started at `started`.
    pub(crate) fn new(options: &SearchOptions, started: Instant) -> Self {
        Self {
            max_nodes: options.max_nodes.unwrap_or(u64::MAX),
            deadline: options.deadline(started),
        }
    }

    /// Whether neither budget is set: no search is stopped by it.
    #[inline]
    pub(crate) fn is_unlimited(&self) -> bool {
        self.max_nodes == u64::MAX && self.deadline.is_none()
    }

    /// Whether a search that has expanded `expanded` nodes must stop: the node budget is
    /// spent, or the time is up (the clock is read every [`CLOCK_INTERVAL`] expansions).
    #[inline]
    pub(crate) fn exhausted(&self, expanded: u64) -> bool {
        expanded >= self.max_nodes
            || self.deadline.is_some_and(|deadline| {
                expanded.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline
            })
    }
}

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchStatus {
    /// The goal was reached. The route is optimal when the heuristic is admissible.
    Found,
    /// A budget ran out first. The route leads to the reached position closest to the goal
    /// by the heuristic: a legal prefix of a route, not a route to the goal.
    Partial,
    /// Every position reachable from the start was explored and none reaches the goal.
    Unreachable,
}

impl SearchStatus {
    /// `"found"`, `"partial"` or `"unreachable"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            SearchStatus::Found => "found",
            SearchStatus::Partial => "partial",
            SearchStatus::Unreachable => "unreachable",
        }
    }
}

impl std::fmt::Display for SearchStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Counters of one search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Nodes whose neighbours were generated.
    pub expanded: u64,
    /// Nodes discovered or improved (pushed onto the open set), the start included.
    pub generated: u64,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// How the search ended.
    pub status: SearchStatus,
    /// Feet positions from the start to the goal ([`SearchStatus::Found`]) or to the best
    /// position reached ([`SearchStatus::Partial`]); empty when
    /// [`SearchStatus::Unreachable`].
    pub path: Vec<IVec3>,
    /// The cost of `path`; `None` when unreachable.
    pub cost: Option<u64>,
    /// Counters.
    pub stats: SearchStats,
}

impl SearchResult {
    /// The result of a search that proved the goal unreachable: no route, no cost.
    #[must_use]
    pub fn unreachable(stats: SearchStats) -> Self {
        Self {
            status: SearchStatus::Unreachable,
            path: Vec::new(),
            cost: None,
            stats,
        }
    }

    /// Whether the goal was reached.
    #[must_use]
    pub fn is_found(&self) -> bool {
        self.status == SearchStatus::Found
    }
}
