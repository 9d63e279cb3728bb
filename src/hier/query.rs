//! Queries over a [`Hierarchy`]: A* over the overlay of portals, then the refinement of the
//! overlay route into walk moves; and the reachability answer from the overlay's components.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::time::Instant;

use glam::IVec3;

use super::Hierarchy;
use super::cell::{CellSearch, Chunk, Direction, chunk_of};
use crate::error::{Error, Result};
use crate::graph::{NavGraph, NodeId};
use crate::search::heuristic::{Estimator, Heuristic};
use crate::search::{SearchOptions, SearchResult, SearchStats, SearchStatus};

/// What the overlay's components say about a pair of feet positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reach {
    /// No route exists: certain.
    Unreachable,
    /// A route exists: the goal lies in the start's cell and a route inside it was found.
    Reachable,
    /// The start and the goal share a component of the overlay (joined ignoring which way
    /// moves go, so a one-way drop may still stand between them), or the labels were stale:
    /// a search decides.
    Maybe,
}

/// How often the overlay search looks at the clock: every this many expansions.
const CLOCK_INTERVAL: u64 = 256;

/// The parent of the states the start's cell search reached.
const FROM_START: u32 = u32::MAX - 1;
/// The parent of the goal reached inside the start's cell without leaving it.
const DIRECT: u32 = u32::MAX - 2;
/// The goal's entry in the open set.
const GOAL: u32 = u32::MAX;

/// What the overlay search knows of one state (a portal entered or leaving its cell).
#[derive(Debug, Clone, Copy, Default)]
struct Record {
    g: u64,
    parent: u32,
    stamp: u32,
}

/// The overlay search's records and open set: a state `2 * slot + leaving` per portal slot.
#[derive(Debug, Clone, Default)]
struct Overlay {
    records: Vec<Record>,
    stamp: u32,
    /// `(f, u64::MAX - g, state)`: lowest `f` first, then the deepest.
    open: BinaryHeap<Reverse<(u64, u64, u32)>>,
    generated: u64,
    /// The goal's best cost and the state it was reached from.
    goal: Option<(u64, u32)>,
}

impl Overlay {
    /// Starts a search over `slots` portal slots.
    fn reset(&mut self, slots: usize) {
        self.open.clear();
        self.goal = None;
        self.generated = 0;
        if self.records.len() < 2 * slots {
            self.records.resize(2 * slots, Record::default());
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.records.fill(Record::default());
            self.stamp = 1;
        }
    }

    /// The cost the search knows for `state`, if any.
    #[inline]
    fn known(&self, state: u32) -> Option<u64> {
        let record = self.records[state as usize];
        (record.stamp == self.stamp).then_some(record.g)
    }

    /// Reaches `state` at cost `g` from `parent`, with the estimate `h()` to the goal (asked
    /// only when `g` improves on what the search knows).
    #[inline]
    fn relax(&mut self, state: u32, g: u64, h: impl FnOnce() -> u64, parent: u32) {
        if self.known(state).is_some_and(|known| known <= g) {
            return;
        }
        let h = h();
        self.records[state as usize] = Record {
            g,
            parent,
            stamp: self.stamp,
        };
        self.generated += 1;
        self.open.push(Reverse((g + h, u64::MAX - g, state)));
    }

    /// Reaches the goal at cost `g` from `parent`.
    fn reach_goal(&mut self, g: u64, parent: u32) {
        if self.goal.is_some_and(|(known, _)| known <= g) {
            return;
        }
        self.goal = Some((g, parent));
        self.generated += 1;
        self.open.push(Reverse((g, u64::MAX - g, GOAL)));
    }
}

/// Reusable state for queries over a [`Hierarchy`]: the overlay search's
/// records and the searches inside cells. Keep one per thread and reuse it, so queries do not
/// allocate. Its `Debug` output is a summary, not its buffers.
#[derive(Clone, Default)]
pub struct HierSearch {
    overlay: Overlay,
    /// The first leg: forwards from the start inside its cell.
    first: CellSearch,
    /// The last leg: backwards from the goal inside its cell.
    last: CellSearch,
    /// The refinement of one overlay step inside a cell.
    refine: CellSearch,
    /// The cost from each portal of the goal's cell to the goal, inside the cell.
    to_goal: Vec<Option<u64>>,
}

impl std::fmt::Debug for HierSearch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HierSearch")
            .field("overlay_states", &self.overlay.records.len())
            .finish_non_exhaustive()
    }
}

impl HierSearch {
    /// A search with empty buffers.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a route over `graph` from the feet position `start` to the feet position `goal`
    /// through the hierarchy `hier` (built from `graph` and kept current with its updates).
    /// The route is optimal under an admissible heuristic (see the
    /// [module docs](super#queries-are-exact)); status, budgets and partial routes work as
    /// for [`GraphSearch`](crate::graph::GraphSearch).
    ///
    /// # Errors
    /// As [`GraphSearch::find_path`](crate::graph::GraphSearch::find_path): a stale or broken
    /// graph, a hierarchy that describes another version of the graph's world
    /// ([`Error::StaleGraph`]), a start or goal that is no node of the graph, empty budgets.
    pub fn find_path(
        &mut self,
        hier: &Hierarchy,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
        options: &SearchOptions,
    ) -> Result<SearchResult> {
        let started = Instant::now();
        hier.check_graph(graph)?;
        options.check_budgets(true)?;
        let (start_id, goal_id) = end_nodes(graph, start, goal)?;
        let costs = hier.costs;
        let estimator = options.heuristic.estimator(graph.agent(), &costs);
        let (start_chunk, goal_chunk) = (chunk_of(start), chunk_of(goal));
        let start_cell = cell_index(hier, start_chunk)?;
        let goal_cell = cell_index(hier, goal_chunk)?;

        self.first.run(
            graph,
            &costs,
            &[start_chunk],
            start_id,
            Direction::Forward,
            None,
        );
        self.last.run(
            graph,
            &costs,
            &[goal_chunk],
            goal_id,
            Direction::Backward,
            None,
        );
        let mut expanded = self.first.expanded + self.last.expanded;
        let to_goal = &mut self.to_goal;
        to_goal.clear();
        to_goal.extend(
            hier.cells[goal_cell]
                .portals
                .iter()
                .map(|&portal| self.last.cost(portal)),
        );

        let overlay = &mut self.overlay;
        overlay.reset(hier.slot_cell.len());
        if start_chunk == goal_chunk
            && let Some(direct) = self.first.cost(goal_id)
        {
            overlay.reach_goal(direct, DIRECT);
        }
        let cell = &hier.cells[start_cell];
        for (local, &portal) in cell.portals.iter().enumerate() {
            if let Some(g) = self.first.cost(portal) {
                let h = || estimator.between(graph.feet(portal), goal);
                overlay.relax(leaving(cell.base + local as u32), g, h, FROM_START);
            }
        }

        let max_nodes = options.max_nodes.unwrap_or(u64::MAX);
        let deadline = options.deadline(started);
        // The expanded state closest to the goal by the heuristic, for a partial route.
        let mut closest = (estimator.between(start, goal), FROM_START);
        let mut status = SearchStatus::Unreachable;
        while let Some(Reverse((_, deep, state))) = overlay.open.pop() {
            let g = u64::MAX - deep;
            if state == GOAL {
                if overlay.goal.is_some_and(|(best, _)| best == g) {
                    status = SearchStatus::Found;
                    break;
                }
                continue;
            }
            if overlay.known(state) != Some(g) {
                continue;
            }
            if expanded >= max_nodes
                || deadline.is_some_and(|deadline| {
                    expanded.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline
                })
            {
                status = SearchStatus::Partial;
                break;
            }
            expanded += 1;
            let slot = state / 2;
            let index = hier.slot_cell[slot as usize] as usize;
            let cell = &hier.cells[index];
            let local = (slot - cell.base) as usize;
            let portal = cell.portals[local];
            let feet = graph.feet(portal);
            let h = estimator.between(feet, goal);
            if h < closest.0 {
                closest = (h, state);
            }
            if state & 1 == 0 {
                // Entered: on to the goal when this is its cell, or across the cell.
                if index == goal_cell
                    && let Some(rest) = self.to_goal[local]
                {
                    overlay.reach_goal(g + rest, state);
                }
                for (other, &target) in cell.portals.iter().enumerate() {
                    if let Some(cost) = cell.cost(local, other) {
                        let h = || estimator.between(graph.feet(target), goal);
                        overlay.relax(
                            leaving(cell.base + other as u32),
                            g + u64::from(cost),
                            h,
                            state,
                        );
                    }
                }
            } else {
                // Leaving: every move across the border enters a portal of another cell.
                graph.for_each_move(portal, &costs, |step| {
                    if chunk_of(step.feet) == cell.chunk {
                        return;
                    }
                    if let Some(other) = hier.portal_of.get(&step.node) {
                        let base = hier.cells[other.cell as usize].base;
                        let h = || estimator.between(step.feet, goal);
                        overlay.relax(
                            entered(base + other.local),
                            g + u64::from(step.cost),
                            h,
                            state,
                        );
                    }
                });
            }
        }

        let generated = overlay.generated + 1;
        let (path, cost) = match status {
            SearchStatus::Found => {
                let (_, parent) = overlay.goal.unwrap_or((0, DIRECT));
                let (path, cost) =
                    self.route(hier, graph, start, Some((goal_id, parent)), parent)?;
                (path, Some(cost))
            }
            SearchStatus::Partial => {
                let (_, state) = closest;
                let (path, cost) = self.route(hier, graph, start, None, state)?;
                (path, Some(cost))
            }
            SearchStatus::Unreachable => (Vec::new(), None),
        };
        let stats = SearchStats {
            expanded,
            generated,
            elapsed: started.elapsed(),
        };
        Ok(match status {
            SearchStatus::Unreachable => SearchResult::unreachable(stats),
            status => SearchResult {
                status,
                path,
                cost,
                stats,
            },
        })
    }

    /// The route of the last overlay search from `start` to the state `end` (its portal's
    /// feet last), and on to the goal `goal` when given (`end` then being the state the goal
    /// was reached from, or [`DIRECT`]), with its cost: the sum of its legs' costs, so that it
    /// is the route's even where a weighted heuristic improved a state after its children
    /// were reached.
    fn route(
        &mut self,
        hier: &Hierarchy,
        graph: &NavGraph,
        start: IVec3,
        goal: Option<(NodeId, u32)>,
        end: u32,
    ) -> Result<(Vec<IVec3>, u64)> {
        let mut path = vec![start];
        let mut cost = 0;
        if end == DIRECT {
            if let Some((goal_id, _)) = goal {
                self.first
                    .append_leg(graph, goal_id, Direction::Forward, &mut path);
                cost = self.first.cost(goal_id).unwrap_or(0);
            }
            return Ok((path, cost));
        }
        let mut chain = Vec::new();
        let mut state = end;
        while state != FROM_START {
            chain.push(state);
            state = self.overlay.records[state as usize].parent;
        }
        chain.reverse();
        let portal = |state: u32| {
            let slot = state / 2;
            let cell = &hier.cells[hier.slot_cell[slot as usize] as usize];
            (cell.portals[(slot - cell.base) as usize], cell.chunk)
        };
        let refine_estimator = refine_estimator(graph, hier);
        if let Some(&first) = chain.first() {
            let node = portal(first).0;
            self.first
                .append_leg(graph, node, Direction::Forward, &mut path);
            cost += self.first.cost(node).unwrap_or(0);
        }
        for pair in chain.windows(2) {
            let ((from, chunk), (to, _)) = (portal(pair[0]), portal(pair[1]));
            if pair[0] & 1 == 1 {
                // A move across the border (one per target: a slot holds one move).
                path.push(graph.feet(to));
                graph.for_each_move(from, &hier.costs, |step| {
                    if step.node == to {
                        cost += u64::from(step.cost);
                    }
                });
            } else if from != to {
                cost +=
                    self.refine_step(graph, hier, chunk, (from, to), &refine_estimator, &mut path)?;
            }
        }
        if let (Some(&last), Some(_)) = (chain.last(), goal) {
            let node = portal(last).0;
            self.last
                .append_leg(graph, node, Direction::Backward, &mut path);
            cost += self.last.cost(node).unwrap_or(0);
        }
        Ok((path, cost))
    }

    /// Appends the walk moves of the overlay step `from -> to` inside the cell `chunk`;
    /// returns their cost.
    fn refine_step(
        &mut self,
        graph: &NavGraph,
        hier: &Hierarchy,
        chunk: Chunk,
        (from, to): (NodeId, NodeId),
        estimator: &Estimator,
        path: &mut Vec<IVec3>,
    ) -> Result<u64> {
        let target = (to, graph.feet(to), estimator);
        let Some(cost) = self.refine.run(
            graph,
            &hier.costs,
            &[chunk],
            from,
            Direction::Forward,
            Some(target),
        ) else {
            return Err(Error::GraphBroken(format!(
                "the hierarchy's cell {chunk:?} has a route from {} to {} that the graph does \
                 not: update the hierarchy with every change of the graph",
                graph.feet(from),
                graph.feet(to)
            )));
        };
        self.refine.append_leg(graph, to, Direction::Forward, path);
        Ok(cost)
    }

    /// What the overlay's components say about a route from `start` to `goal` (feet
    /// positions): [`Reach::Unreachable`] only when none exists. Searches the start's and
    /// the goal's cells (a few hundred nodes each), not the world. Labels left stale by
    /// updates ([`Hierarchy::refresh_components`] not called since) give
    /// [`Reach::Maybe`].
    ///
    /// # Errors
    /// As [`HierSearch::find_path`].
    pub fn reachability(
        &mut self,
        hier: &Hierarchy,
        graph: &NavGraph,
        start: IVec3,
        goal: IVec3,
    ) -> Result<Reach> {
        hier.check_graph(graph)?;
        let (start_id, goal_id) = end_nodes(graph, start, goal)?;
        let (start_chunk, goal_chunk) = (chunk_of(start), chunk_of(goal));
        let (start_cell, goal_cell) = (
            cell_index(hier, start_chunk)?,
            cell_index(hier, goal_chunk)?,
        );
        let costs = hier.costs;
        self.first.run(
            graph,
            &costs,
            &[start_chunk],
            start_id,
            Direction::Forward,
            None,
        );
        if start_chunk == goal_chunk && self.first.cost(goal_id).is_some() {
            return Ok(Reach::Reachable);
        }
        if hier.components.is_stale() {
            return Ok(Reach::Maybe);
        }
        self.last.run(
            graph,
            &costs,
            &[goal_chunk],
            goal_id,
            Direction::Backward,
            None,
        );
        let labels = |cell: usize, search: &CellSearch| {
            let cell = &hier.cells[cell];
            cell.portals
                .iter()
                .enumerate()
                .filter(|&(_, &portal)| search.cost(portal).is_some())
                .map(|(local, _)| hier.components.labels[(cell.base + local as u32) as usize])
                .collect::<Vec<u32>>()
        };
        let from = labels(start_cell, &self.first);
        let to = labels(goal_cell, &self.last);
        Ok(if from.iter().any(|label| to.contains(label)) {
            Reach::Maybe
        } else {
            Reach::Unreachable
        })
    }
}

/// The state of the portal in `slot` entered from another cell.
#[inline]
fn entered(slot: u32) -> u32 {
    2 * slot
}

/// The state of the portal in `slot` about to leave its cell.
#[inline]
fn leaving(slot: u32) -> u32 {
    2 * slot + 1
}

/// The index of the cell `chunk`, which holds a node of the graph.
fn cell_index(hier: &Hierarchy, chunk: Chunk) -> Result<usize> {
    hier.by_chunk
        .get(&chunk)
        .map(|&index| index as usize)
        .ok_or_else(|| {
            Error::GraphBroken(format!(
                "the hierarchy has no cell for the chunk column {chunk:?}, where the graph has \
                 nodes: update the hierarchy with every change of the graph"
            ))
        })
}

/// The heuristic of the refinement inside cells: the default octile one, admissible for
/// every cost, so that each refined step costs exactly its table entry.
fn refine_estimator(graph: &NavGraph, hier: &Hierarchy) -> Estimator {
    Heuristic::default().estimator(graph.agent(), &hier.costs)
}

/// The nodes of `start` and `goal`, or the error that names which end is not a valid feet
/// position and why: what [`HierSearch::find_path`] and [`HierSearch::reachability`] both
/// ask first.
pub(super) fn end_nodes(graph: &NavGraph, start: IVec3, goal: IVec3) -> Result<(NodeId, NodeId)> {
    let start_id = graph
        .node_or_reason(start)
        .map_err(|reason| Error::InvalidStart { pos: start, reason })?;
    let goal_id = graph
        .node_or_reason(goal)
        .map_err(|reason| Error::InvalidGoal { pos: goal, reason })?;
    Ok((start_id, goal_id))
}
