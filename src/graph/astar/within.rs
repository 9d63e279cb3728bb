//! [`GraphSearch::search_within`]: the graph's A* kept inside a few chunk columns, for the
//! hierarchy's refinement windows. The same loop, records and move decoding as the plain
//! search ([`Forward`]), wrapped by a source that drops the moves landing outside the area
//! ([`InArea`]), so the plain search's code is not touched. [`GraphSearch::exhaust_within`]
//! and [`GraphSearch::exhaust_to_within`] run Dijkstra over an area to its end, forward or
//! backward ([`Backward`] wrapped as [`FromArea`]), for the abstraction's end cells: every
//! node's cost from the start, or to the target.
//!
//! The end cells' searches ran on a search of their own (`CellSearch`, a hash map of records
//! and the moves listed through [`NavGraph::for_each_move`]): 0.77 M instructions per query
//! at 1024 (`HIER_ENGINE=hpa valgrind --tool=callgrind --toggle-collect='*timed_hpa*' long
//! --pairs 20 --edits 0 --weight 1 --size 1024`), against 0.50 M on this loop: the start's
//! cell 0.33 M to 0.12 M, the goal's (backward, mostly [`NavGraph::for_each_incoming`]) 0.45 M
//! to 0.39 M; the same nodes expanded, the same costs. Stopping them once the cell's portals
//! are settled was tried: not one fewer node expanded (likely some portal of each cell is out
//! of reach inside it), 105.87 M instructions for the 20 queries against 104.73 M.

use std::time::Instant;

use glam::IVec3;

use super::records::{GraphRecords, Record, Records};
use super::source::{Backward, Forward, SlotMove};
use super::{Core, GraphSearch, NodeGoal, OctileNodeGoal};
use crate::graph::{NO_NODE, NavGraph, NodeId};
use crate::search::core::{Landing, MoveSource, Successor, run};
use crate::search::heuristic::{Estimator, Heuristic, HeuristicKind};
use crate::search::{Budget, Goal, SearchOptions};

/// A goal no node reaches: the search runs until its area is exhausted.
struct Exhaust;

impl Goal for Exhaust {
    fn is_reached(&self, _: IVec3) -> bool {
        false
    }

    fn estimate(&self, _: IVec3, _: &Estimator) -> u64 {
        0
    }
}

/// The moves of [`Backward`] (into each node) whose source lies in one of the chunk columns
/// `area`.
struct FromArea<'a> {
    backward: Backward<'a, false>,
    area: &'a [[i32; 2]],
}

impl<'r, R: Record> MoveSource<GraphRecords<'r, R>> for FromArea<'_> {
    type Landing = IVec3;

    #[inline]
    fn feet(&self, table: &GraphRecords<'r, R>, node: u32) -> IVec3 {
        self.backward.feet(table, node)
    }

    #[inline]
    fn expand(
        &mut self,
        table: &mut GraphRecords<'r, R>,
        node: u32,
        record: R,
        feet: IVec3,
        mut relax: impl FnMut(
            &mut GraphRecords<'r, R>,
            Successor<NodeId, (usize, u64), Self::Landing>,
        ) -> bool,
    ) {
        let area = self.area;
        self.backward
            .expand(table, node, record, feet, |table, next| {
                // The backward source's positions are world feet positions.
                let from = next.landing;
                !area.contains(&[from.x >> 4, from.z >> 4]) || relax(table, next)
            });
    }
}

/// The moves of [`Forward`] that land in one of the chunk columns `area`.
///
/// Dropping moves leaves the skipped detours right: a detour a parent dominates lands on
/// the node the parent's own move lands on, so the area keeps both or neither.
struct InArea<'a> {
    forward: Forward<'a>,
    /// The graph's origin: the searches run in coordinates relative to it.
    origin: IVec3,
    area: &'a [[i32; 2]],
}

impl<'r, R: Record> MoveSource<GraphRecords<'r, R>> for InArea<'_> {
    type Landing = SlotMove;

    #[inline]
    fn feet(&self, table: &GraphRecords<'r, R>, node: u32) -> IVec3 {
        self.forward.feet(table, node)
    }

    #[inline]
    fn expand(
        &mut self,
        table: &mut GraphRecords<'r, R>,
        node: u32,
        record: R,
        feet: IVec3,
        mut relax: impl FnMut(
            &mut GraphRecords<'r, R>,
            Successor<NodeId, (usize, u64), Self::Landing>,
        ) -> bool,
    ) {
        let (origin, area) = (self.origin, self.area);
        self.forward
            .expand(table, node, record, feet, |table, next| {
                // World feet positions fit i32 (the graph's do), and `>> 4` floors.
                let to = origin + next.landing.feet(feet);
                !area.contains(&[to.x >> 4, to.z >> 4]) || relax(table, next)
            });
    }
}

impl GraphSearch {
    /// A* from node `start` to node `target` of `graph` over the moves that land in the
    /// chunk columns `area` (chunk coordinates), estimating with `estimator`: the cheapest
    /// route that stays there when `estimator` is admissible, `None` when there is none.
    /// The route's nodes after `start`, each with its cost from `start` (the last one's is the
    /// route's), are written to `route` (cleared first); returns the nodes expanded.
    ///
    /// `start` and `target` must be live nodes of `graph`; `start` may lie outside `area`.
    pub(crate) fn search_within(
        &mut self,
        graph: &NavGraph,
        (start, target): (NodeId, NodeId),
        area: &[[i32; 2]],
        estimator: &Estimator,
        route: &mut Vec<(NodeId, u64)>,
    ) -> Option<u64> {
        route.clear();
        self.core.prepare(graph);
        self.last_narrow = self.core.narrow_fits(graph);
        // The search runs in the graph's coordinates, as the plain one does.
        let local = graph.local_feet(target);
        let ends = (start, target);
        let core = &mut self.core;
        match (self.last_narrow, estimator.octile()) {
            (true, Some(octile)) => core.within(
                &mut self.narrow,
                graph,
                ends,
                area,
                &OctileNodeGoal {
                    target: local,
                    octile,
                },
                estimator,
                route,
            ),
            (true, None) => core.within(
                &mut self.narrow,
                graph,
                ends,
                area,
                &NodeGoal(local),
                estimator,
                route,
            ),
            (false, Some(octile)) => core.within(
                &mut self.wide,
                graph,
                ends,
                area,
                &OctileNodeGoal {
                    target: local,
                    octile,
                },
                estimator,
                route,
            ),
            (false, None) => core.within(
                &mut self.wide,
                graph,
                ends,
                area,
                &NodeGoal(local),
                estimator,
                route,
            ),
        }
    }
}

impl GraphSearch {
    /// Dijkstra from node `start` of `graph` over the moves that land in the chunk columns
    /// `area`, until no node is left: afterwards [`GraphSearch::cost_within`] gives each
    /// node's cost from `start` along routes that stay there. Returns the nodes expanded.
    ///
    /// `start` must be a live node of `graph`; it may lie outside `area`.
    pub(crate) fn exhaust_within(
        &mut self,
        graph: &NavGraph,
        start: NodeId,
        area: &[[i32; 2]],
    ) -> u64 {
        self.exhaust(graph, start, area, false)
    }

    /// Dijkstra backward from node `target` of `graph` over the moves into each node whose
    /// source lies in the chunk columns `area`, until no node is left: afterwards
    /// [`GraphSearch::cost_within`] gives each node's cost to `target` along routes that
    /// stay there. Returns the nodes expanded.
    ///
    /// `target` must be a live node of `graph`; it may lie outside `area`.
    pub(crate) fn exhaust_to_within(
        &mut self,
        graph: &NavGraph,
        target: NodeId,
        area: &[[i32; 2]],
    ) -> u64 {
        self.exhaust(graph, target, area, true)
    }

    /// The cost of node `node` from the start (or to the target) of the last
    /// [`GraphSearch::exhaust_within`] (or [`GraphSearch::exhaust_to_within`]), when that
    /// search reached it.
    pub(crate) fn cost_within(&self, node: NodeId) -> Option<u64> {
        if self.last_narrow {
            self.narrow.reached(node).map(Record::g)
        } else {
            self.wide.reached(node).map(Record::g)
        }
    }

    /// [`GraphSearch::exhaust_within`], or [`GraphSearch::exhaust_to_within`] when
    /// `backward`, on the narrow records when every cost fits them (as the plain search does:
    /// a search that keeps one [`GraphSearch`] for both directions then allocates one layout).
    fn exhaust(&mut self, graph: &NavGraph, end: NodeId, area: &[[i32; 2]], backward: bool) -> u64 {
        self.core.prepare(graph);
        self.last_narrow = self.core.narrow_fits(graph);
        let core = &mut self.core;
        if self.last_narrow {
            core.exhaust(&mut self.narrow, graph, end, area, backward)
        } else {
            core.exhaust(&mut self.wide, graph, end, area, backward)
        }
    }
}

impl Core {
    /// [`GraphSearch::exhaust`] on one record layout.
    fn exhaust<R: Record>(
        &mut self,
        table: &mut Records<R>,
        graph: &NavGraph,
        end: NodeId,
        area: &[[i32; 2]],
        backward: bool,
    ) -> u64 {
        // No budget: the area bounds the search.
        let budget = Budget::new(&SearchOptions::default(), Instant::now());
        let estimator = Heuristic::new(HeuristicKind::Zero).estimator(graph.agent(), &self.costs);
        let mut records = table.start(graph, end);
        let ended = if backward {
            let mut source = FromArea {
                backward: Backward {
                    graph,
                    costs: &self.costs,
                    radius: u64::MAX,
                    expanded: None,
                },
                area,
            };
            run::<_, _, _, false>(
                &mut records,
                &mut source,
                &mut self.open,
                end,
                &Exhaust,
                &estimator,
                &budget,
            )
        } else {
            let mut source = InArea {
                forward: Forward {
                    graph,
                    pricing: &self.pricing,
                    detours: &self.detours,
                    costs: &self.costs,
                },
                origin: graph.origin,
                area,
            };
            run::<_, _, _, false>(
                &mut records,
                &mut source,
                &mut self.open,
                end,
                &Exhaust,
                &estimator,
                &budget,
            )
        };
        // Only a cost beyond the records stops a search early, and the narrow records are
        // used only when every cost fits them.
        ended.map_or(0, |ended| ended.stats.expanded)
    }

    /// [`GraphSearch::search_within`] on one record layout and goal.
    #[expect(
        clippy::too_many_arguments,
        reason = "the parts of one search, each borrowed from a different field"
    )]
    fn within<R: Record, G: Goal>(
        &mut self,
        table: &mut Records<R>,
        graph: &NavGraph,
        (start, target): (NodeId, NodeId),
        area: &[[i32; 2]],
        goal: &G,
        estimator: &Estimator,
        route: &mut Vec<(NodeId, u64)>,
    ) -> Option<u64> {
        // No budget: the area bounds the search.
        let budget = Budget::new(&SearchOptions::default(), Instant::now());
        let mut records = table.start(graph, start);
        let mut source = InArea {
            forward: Forward {
                graph,
                pricing: &self.pricing,
                detours: &self.detours,
                costs: &self.costs,
            },
            origin: graph.origin,
            area,
        };
        let ended = run::<_, _, _, false>(
            &mut records,
            &mut source,
            &mut self.open,
            start,
            goal,
            estimator,
            &budget,
        )?;
        let end = ended.found?;
        debug_assert_eq!(end, target, "the goal is the target's feet position");
        let records = records.records;
        let mut node = end;
        while node != start && node != NO_NODE {
            let record = records[node as usize];
            route.push((node, record.g()));
            node = record.parent(graph, &self.rises, node);
        }
        route.reverse();
        Some(ended.stats.expanded)
    }
}

#[cfg(test)]
mod tests;
