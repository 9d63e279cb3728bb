//! [`AdaptedSearch`]: A* over the walk graph toward one goal, guided by the lower bounds
//! earlier searches toward that goal taught (see `learned.rs`).
//!
//! The first plan searches backward, from the goal to the agent, so that every node it
//! expands learns its exact cost to the goal: the old route and the band around it. It goes
//! on past the agent for half as many expansions again: a wider band of exact bounds keeps
//! the long detours a change may force inside it for longer (on the `replan` benchmark this
//! cut the replans' expansions by 14% for a plan half as long again; twice as many cut
//! them by 20% for a plan twice as long). Each
//! replan then searches forward from the agent with those bounds (kept admissible and
//! consistent through the block changes) as its heuristic. With exact bounds along the old
//! route, a search whose route did not get dearer walks straight down it; one whose route
//! got dearer by `d` expands the nodes whose old route cost less than `d` more than the old
//! optimum; one near new moves searches toward them with the plain estimate and from them
//! with the bounds. A search is never guided worse than by the plain estimate, which the
//! bounds never fall below.

use std::cell::Cell;
use std::time::Instant;

use glam::IVec3;

use super::learned::Bounds;
use crate::error::Result;
use crate::graph::{GraphSearch, NO_NODE, NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::{Goal, SearchOptions, SearchResult, SearchStatus};

/// A* toward one goal over a [`NavGraph`], with the bounds it learns; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct AdaptedSearch {
    estimator: Estimator,
    /// The first plans: backward from the goal, on the one search loop. Its records keep each
    /// planned node's cost to the goal.
    planner: GraphSearch,
    /// The nodes the last plan expanded, to learn from.
    expanded: Vec<NodeId>,
    pub(super) bounds: Bounds,
    /// The forward searches.
    astar: GraphSearch,
}

/// The end of a first plan: it searches backward toward the agent's position `start` and goes
/// on past it for half as many expansions again (see the module docs), then stops at the
/// next node it would expand. Asked once per expansion (the loop asks the goal of each node it
/// pops before expanding it), so it counts them.
struct PastStart {
    start: IVec3,
    /// Nodes asked about so far: the expansions before the current one.
    asked: Cell<usize>,
    /// The expansions made before the start was reached.
    reached: Cell<Option<usize>>,
}

impl Goal for PastStart {
    fn is_reached(&self, feet: IVec3) -> bool {
        let asked = self.asked.get();
        self.asked.set(asked + 1);
        if let Some(at) = self.reached.get() {
            return asked >= at + at / 2;
        }
        if feet == self.start {
            self.reached.set(Some(asked));
        }
        false
    }

    /// The estimate of a backward search: from the start to `feet`.
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        estimator.between(self.start, feet)
    }
}

impl AdaptedSearch {
    /// A search for `agent` (which must walk) moving at `costs` (valid).
    ///
    /// # Errors
    /// As [`GraphSearch::new`].
    pub(super) fn new(agent: &Agent, costs: MoveCosts) -> Result<Self> {
        let estimator = Heuristic::default().estimator(agent, &costs);
        Ok(Self {
            estimator,
            planner: GraphSearch::new(costs)?,
            expanded: Vec::new(),
            bounds: Bounds::new(estimator),
            astar: GraphSearch::new(costs)?,
        })
    }

    /// Plans from node `start` to node `goal` by an A* backward from the goal, and learns
    /// from it the bounds of every node it expanded (exact) and of the others (see
    /// `learned.rs`). Forgets every bound learned for an earlier goal.
    pub(super) fn plan(
        &mut self,
        graph: &NavGraph,
        start: NodeId,
        goal: NodeId,
        started: Instant,
    ) -> SearchResult {
        let start_feet = graph.feet(start);
        self.bounds.reset(graph, graph.feet(goal));
        let past = PastStart {
            start: start_feet,
            asked: Cell::new(0),
            reached: Cell::new(None),
        };
        self.expanded.clear();
        let (stopped_at, mut stats) = self.planner.search_backward(
            graph,
            goal,
            &past,
            &self.estimator,
            None,
            Some(&mut self.expanded),
        );
        if past.reached.get().is_none() {
            // Nodes that cannot reach the goal have no finite cost: the plain estimate is
            // the only bound consistent with them.
            stats.elapsed = started.elapsed();
            return SearchResult::unreachable(stats);
        }
        // The node the plan stopped at has the smallest key left, which bounds every node not
        // expanded; a plan that ran out of nodes bounds nothing.
        let frontier = stopped_at.map_or(u64::MAX, |node| {
            self.planner.cost_to_target(node).unwrap_or(u64::MAX)
                + past.estimate(graph.feet(node), &self.estimator)
        });
        let planned = |node| self.planner.cost_to_target(node).unwrap_or(u64::MAX);
        let cost = planned(start);
        for &node in &self.expanded {
            self.bounds.learn(node, planned(node));
        }
        self.bounds.learn(start, cost);
        self.bounds.learn_base(start_feet, frontier);
        let mut path = Vec::with_capacity(256);
        let mut node = start;
        while node != NO_NODE {
            path.push(graph.feet(node));
            node = self.planner.toward_target(graph, node);
        }
        stats.elapsed = started.elapsed();
        SearchResult {
            status: SearchStatus::Found,
            path,
            cost: Some(cost),
            stats,
        }
    }

    /// An optimal route from node `start` to the goal of the last plan, by an A* over the
    /// graph ([`GraphSearch`]) with the learned bounds as its heuristic.
    pub(super) fn search(&mut self, graph: &NavGraph, start: IVec3) -> Result<SearchResult> {
        let goal = LearnedGoal {
            graph,
            bounds: &self.bounds,
        };
        self.astar
            .search(graph, start, &goal, &SearchOptions::default())
    }

    /// The cost from each position of `path`, the route of the last plan, to the goal (the
    /// plan's records hold them), written into `remaining`; false (and `remaining`
    /// unspecified) when one is missing.
    pub(super) fn planned_remaining(
        &self,
        graph: &NavGraph,
        path: &[IVec3],
        remaining: &mut Vec<u64>,
    ) -> bool {
        remaining.clear();
        for &feet in path {
            match graph
                .node(feet)
                .and_then(|id| self.planner.cost_to_target(id))
            {
                Some(cost) => remaining.push(cost),
                None => return false,
            }
        }
        true
    }
}

/// The goal of the bounds: its one node, estimated by the learned bounds.
struct LearnedGoal<'a> {
    graph: &'a NavGraph,
    bounds: &'a Bounds,
}

impl Goal for LearnedGoal<'_> {
    #[inline]
    fn is_reached(&self, feet: IVec3) -> bool {
        feet == self.bounds.goal()
    }

    /// The learned bound (admissible and consistent, see `learned.rs`) of the node at
    /// `feet`; the search asks only about nodes of the graph.
    #[inline]
    fn estimate(&self, feet: IVec3, estimator: &Estimator) -> u64 {
        match self.graph.node(feet) {
            Some(id) => self.bounds.estimate(id, feet),
            None => estimator.between(feet, self.bounds.goal()),
        }
    }

    fn exact_target(&self) -> Option<IVec3> {
        Some(self.bounds.goal())
    }
}
