//! [`AdaptedSearch`]: A* over the walk graph toward one goal, guided by the lower bounds
//! earlier searches toward that goal taught (see `learned.rs`).
//!
//! The first plan searches backward, from the goal to the agent, so that every node it
//! expands learns its exact cost to the goal: the old route and the band around it. Each
//! replan then searches forward from the agent with those bounds (kept admissible and
//! consistent through the block changes) as its heuristic. With exact bounds along the old
//! route, a search whose route did not get dearer walks straight down it; one whose route
//! got dearer by `d` expands the nodes whose old route cost less than `d` more than the old
//! optimum; one near new moves searches toward them with the plain estimate and from them
//! with the bounds. A search is never guided worse than by the plain estimate, which the
//! bounds never fall below.

use std::time::Instant;

use glam::IVec3;

use super::learned::Bounds;
use crate::error::Result;
use crate::graph::{GraphSearch, NO_NODE, NavGraph, NodeId};
use crate::moves::agent::{Agent, MoveCosts};
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::open::OpenSet;
use crate::search::{Goal, SearchOptions, SearchResult, SearchStats, SearchStatus};

/// What a search knows of one node: its cost from the search's start, the node it was
/// reached from, and the search stamp (open, or one more when closed).
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    g: u64,
    parent: NodeId,
    stamp: u32,
}

/// A* toward one goal over a [`NavGraph`], with the bounds it learns; see the
/// [module docs](self).
#[derive(Debug, Clone)]
pub(super) struct AdaptedSearch {
    costs: MoveCosts,
    estimator: Estimator,
    records: Vec<Record>,
    /// The open stamp of the last search; always even.
    stamp: u32,
    open: OpenSet,
    /// The nodes the last search expanded, to learn from.
    expanded: Vec<NodeId>,
    pub(super) bounds: Bounds,
    /// The forward searches.
    astar: GraphSearch,
}

impl AdaptedSearch {
    /// A search for `agent` (which must walk) moving at `costs` (valid).
    ///
    /// # Errors
    /// As [`GraphSearch::new`].
    pub(super) fn new(agent: &Agent, costs: MoveCosts) -> Result<Self> {
        let estimator = Heuristic::default().estimator(agent, &costs);
        Ok(Self {
            costs,
            estimator,
            records: Vec::new(),
            stamp: 0,
            open: OpenSet::default(),
            expanded: Vec::new(),
            bounds: Bounds::new(estimator),
            astar: GraphSearch::new(costs)?,
        })
    }

    /// A fresh open stamp, with records for every node of `graph`.
    fn next_stamp(&mut self, graph: &NavGraph) -> u32 {
        if self.records.len() < graph.id_bound() {
            // Stamp 0 is never a search's.
            self.records.resize(graph.id_bound(), Record::default());
        }
        if self.stamp >= u32::MAX - 3 {
            for record in &mut self.records {
                record.stamp = 0;
            }
            self.stamp = 0;
        }
        self.stamp += 2;
        self.expanded.clear();
        self.stamp
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
        let stamp = self.next_stamp(graph);
        let start_feet = graph.feet(start);
        let goal_feet = graph.feet(goal);
        self.bounds.reset(graph, goal_feet);
        let mut stats = SearchStats::default();
        let Self {
            costs,
            estimator,
            records,
            open,
            expanded,
            ..
        } = self;
        records[goal as usize] = Record {
            g: 0,
            parent: NO_NODE,
            stamp,
        };
        let estimate = estimator.between(start_feet, goal_feet);
        open.reset(estimate);
        open.push(estimate, 0, goal);
        stats.generated = 1;
        let mut found = false;
        while let Some((_, node)) = open.pop() {
            let current = records[node as usize];
            if current.stamp != stamp {
                continue;
            }
            if node == start {
                found = true;
                break;
            }
            records[node as usize].stamp = stamp + 1;
            expanded.push(node);
            graph.for_each_incoming(node, costs, |step| {
                let g = current.g + u64::from(step.cost);
                let record = &mut records[step.node as usize];
                if record.stamp >> 1 == stamp >> 1 && g >= record.g {
                    return;
                }
                *record = Record {
                    g,
                    parent: node,
                    stamp,
                };
                open.push(g + estimator.between(start_feet, step.feet), g, step.node);
                stats.generated += 1;
            });
        }
        stats.expanded = expanded.len() as u64;
        if !found {
            // Nodes that cannot reach the goal have no finite cost: the plain estimate is
            // the only bound consistent with them.
            stats.elapsed = started.elapsed();
            return SearchResult::unreachable(stats);
        }
        let cost = records[start as usize].g;
        for &node in expanded.iter() {
            self.bounds.learn(node, records[node as usize].g);
        }
        self.bounds.learn(start, cost);
        self.bounds.learn_base(start_feet, cost);
        let mut path = Vec::with_capacity(256);
        let mut node = start;
        while node != NO_NODE {
            path.push(graph.feet(node));
            node = records[node as usize].parent;
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
                .and_then(|id| self.records.get(id as usize))
            {
                Some(record) => remaining.push(record.g),
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
